// A log written by an attacker who controls a login name or a URL: every report of it
// must stay well-formed and must not let its text escape into the surrounding format.

import { log, pair } from '../helpers.js';

const NASTY = '::error::%0A\r</failure>]]>\x00\x1b[31m&"\'\u202e';

/** Findings whose messages carry log text: a request id and a zone token. */
export const INJECTION_LOG = log(
  pair('10:00:00'),
  // The request id token holds anything but a space and `>`.
  `[21-Nov-2026 10:00:01 +0100]: <${NASTY.replace(/>/g, '')}> IMAP Error: x in f on line 1 (POST /cpsess0123456789/x?_task=mail&_action=refresh)`,
  // The zone token holds anything but a space and `]`.
  `[21-Nov-2026 10:00:02 ${NASTY.replace(/\]/g, '')}] PHP Warning:  x`,
  `[21-Nov-2026 10:00:03 +0100]: <3fa9c2d1> DB Error: ${NASTY}`,
);

/** File names can carry it too (they are the paths given on the command line). */
export const NASTY_NAME = 'evil ::warning::x,y:z %0A ]]> <failure> \x1b[1m.log';
