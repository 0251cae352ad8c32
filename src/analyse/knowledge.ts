// What known log signatures mean and what to do about them: the knowledge behind the
// diagnosis and `webmail-log explain`. One table, so that adding a case is adding a row.
//
// Sources, checked before writing anything down:
// - roundcube/roundcubemail bin/initdb.sh: creates a schema from <dir>/<db>.initial.sql
//   (rcmail_utils::db_init); bin/updatedb.sh --package=<name> --dir=<dir> applies the
//   numbered <dir>/<db>/<version>.sql files newer than the `<name>-version` row of the
//   `system` table (rcmail_utils::db_update); initdb.sh has been there since before 1.6
//   (pull request 8438 of 2022 extended it).
// - The calendar plugin: plugins/calendar/drivers/database/SQL/<db>.initial.sql creates
//   `calendars` (and records calendar-database-version); the CalDAV driver's
//   plugins/calendar/drivers/caldav/SQL/<db>.initial.sql creates `caldav_calendars`
//   (calendar-caldav-version). Seen in kolab's roundcubemail-plugins-kolab and in the
//   CalDAV-enabled forks of the plugin.
// - rcube_db::handle_error writes sprintf('[%s] %s', errorInfo[1], errorInfo[2]): the
//   driver's code and message, so SQLite's busy error is `[5] database is locked` and its
//   read-only error `[8] attempt to write a readonly database`. An empty `[]` means PDO
//   gave neither. $config['sql_debug'] logs every query to <log_dir>/sql.
// - SQLite result codes: SQLITE_BUSY (5) "database is locked"; SQLITE_READONLY (8)
//   "attempt to write a readonly database", also raised when the process may not create
//   the journal file in the database's directory (SQLITE_READONLY_DIRECTORY).
// - cPanel documentation: Roundcube's SQLite database for a mailbox is
//   /home/<cpanel user>/etc/<domain>/<mailbox>.rcube.db, owned by the cPanel user with mode
//   -rw-------; cPHulk is cPanel's brute-force protection for logins.
// - Roundcube 1.6.5 writes IMAP login failures as "Login failed for <user> against <host>
//   from <client>. <server's answer>" (the real samples), and "Could not connect to
//   <host>:<port>: Connection refused" when the IMAP server is down.

export interface Knowledge {
  id: string;
  title: string;
  /** What it means, in plain words. */
  meaning: string;
  /** What to do, step by step. */
  fix: string[];
  /** A log excerpt of it. */
  example: string[];
}

const LOOKUP = (table: string, t = '08:58:22') =>
  `[10-Mar-2026 ${t} +0100]: <3fa9c2d1> DB Error: [1] no such table: ${table} (SQL Query: SELECT *, calendar_id AS id FROM ${table} WHERE user_id = '1' ORDER BY name) in /usr/share/roundcube/program/lib/Roundcube/rcube_db.php on line 578 (POST /cpsess9263415718/3rdparty/roundcube/index.php?_task=mail&_action=refresh)`;

const SQLITE_FILE = 'Under cPanel every mailbox has its own SQLite database, /home/<cpanel user>/etc/<domain>/<mailbox>.rcube.db (the cPanel login itself: /home/<cpanel user>/etc/<cpanel user>.rcube.db).';

export const KNOWLEDGE: readonly Knowledge[] = [
  {
    id: 'calendar-tables-missing',
    title: 'Both calendar tables are missing',
    meaning:
      "On every mailbox refresh the calendar plugin reads the user's local calendars (table calendars) and remote-sync CalDAV calendars (table caldav_calendars), and both reads fail with \"no such table\": the plugin is enabled, but its database schema was never created in this database. " +
      SQLITE_FILE,
    fix: [
      'Create the local calendar tables from the database driver schema: <roundcube>/bin/initdb.sh --dir=<roundcube>/plugins/calendar/drivers/database/SQL (it runs sqlite.initial.sql, mysql.initial.sql or postgres.initial.sql for the configured database).',
      'Create the CalDAV tables the same way from the CalDAV driver schema: <roundcube>/bin/initdb.sh --dir=<roundcube>/plugins/calendar/drivers/caldav/SQL.',
      'For cPanel SQLite databases, apply the same files to each mailbox database, as its owner: sqlite3 /home/USER/etc/DOMAIN/MAILBOX.rcube.db < <roundcube>/plugins/calendar/drivers/database/SQL/sqlite.initial.sql (and the caldav one).',
      'Later schema changes come with plugin updates: <roundcube>/bin/updatedb.sh --package=calendar-database --dir=<roundcube>/plugins/calendar/drivers/database/SQL (calendar-caldav for the CalDAV driver).',
      "If nobody uses the calendar, remove 'calendar' from $config['plugins'] instead.",
    ],
    example: [LOOKUP('calendars'), LOOKUP('caldav_calendars')],
  },
  {
    id: 'local-calendar-table-missing',
    title: 'The local calendar table is missing',
    meaning:
      'The calendar lookups on refresh fail only for the local calendars (table calendars); the CalDAV tables exist. The database driver part of the calendar plugin schema was never created. ' + SQLITE_FILE,
    fix: [
      'Create it: <roundcube>/bin/initdb.sh --dir=<roundcube>/plugins/calendar/drivers/database/SQL, or for a cPanel mailbox: sqlite3 /home/USER/etc/DOMAIN/MAILBOX.rcube.db < <roundcube>/plugins/calendar/drivers/database/SQL/sqlite.initial.sql.',
    ],
    example: [LOOKUP('calendars')],
  },
  {
    id: 'remote-calendar-table-missing',
    title: 'The CalDAV calendar table is missing',
    meaning:
      'The calendar lookups on refresh fail only for the remote-sync calendars (table caldav_calendars): the CalDAV driver of the calendar plugin is enabled but its schema was never created. ' + SQLITE_FILE,
    fix: [
      'Create it: <roundcube>/bin/initdb.sh --dir=<roundcube>/plugins/calendar/drivers/caldav/SQL, or for a cPanel mailbox: sqlite3 /home/USER/etc/DOMAIN/MAILBOX.rcube.db < <roundcube>/plugins/calendar/drivers/caldav/SQL/sqlite.initial.sql.',
    ],
    example: [LOOKUP('caldav_calendars')],
  },
  {
    id: 'database-locked',
    title: 'The SQLite database is locked',
    meaning:
      'SQLite answered SQLITE_BUSY ("database is locked"): another process held a write lock on the database for longer than Roundcube waited. A query waits for the lock before it fails, so such entries can be stamped several seconds after the request began (up to 10 s), which also explains pair-same-second findings next to them.',
    fix: [
      'Look for what else writes to the .rcube.db file at those times: a backup or cron job copying it, or several webmail sessions of the same mailbox working at once.',
      'Make sure the directory of the database is writable by its owner, so that SQLite can create its journal (-journal, or -wal and -shm) files next to it.',
    ],
    example: [
      `[10-Mar-2026 09:02:05 +0100]: <3fa9c2d1> DB Error: [5] database is locked (SQL Query: SELECT *, calendar_id AS id FROM calendars WHERE user_id = '1' ORDER BY name) in /usr/share/roundcube/program/lib/Roundcube/rcube_db.php on line 578 (POST /cpsess9263415718/3rdparty/roundcube/index.php?_task=mail&_action=refresh)`,
    ],
  },
  {
    id: 'database-readonly',
    title: 'The SQLite database is read-only',
    meaning:
      'SQLite answered SQLITE_READONLY ("attempt to write a readonly database"): the web server process may read the database file but not write it, or may not create the journal file in its directory, which SQLite needs for every write. ' + SQLITE_FILE,
    fix: [
      'Give the file and its directory back to the cPanel user with owner write permission: chown USER:USER /home/USER/etc/DOMAIN/MAILBOX.rcube.db and the directory; a healthy database file shows -rw------- USER USER.',
    ],
    example: [
      `[10-Mar-2026 09:02:05 +0100]: <3fa9c2d1> DB Error: [8] attempt to write a readonly database (SQL Query: UPDATE session SET changed = now() WHERE sess_id = 'x') in /usr/share/roundcube/program/lib/Roundcube/rcube_db.php on line 578 (POST /cpsess9263415718/3rdparty/roundcube/index.php?_task=mail&_action=refresh)`,
    ],
  },
  {
    id: 'empty-db-error',
    title: 'DB errors without any detail on login and on the entry page',
    meaning:
      'Roundcube logged a failed database call whose error had neither a driver code nor a message, and no query text: it writes "[code] message" from PDO, and PDO gave nothing. They come with the login completion (login=1&post_login=…) and the entry page, before any mailbox refresh.',
    fix: [
      "Turn on $config['sql_debug'] = true; for a while: Roundcube then logs every query to <log_dir>/sql (or syslog), which shows the statement that failed.",
      'Check that the mailbox database exists and can be opened by its owner. ' + SQLITE_FILE,
    ],
    example: [
      `[27-Jan-2026 08:03:17 -0800]: <bq90cn5q> DB Error: []  (SQL Query: ) in /usr/share/roundcube/program/lib/Roundcube/rcube_db.php on line 578 (POST /cpsess9165194812/3rdparty/roundcube/index.php?login=1&post_login=46480620395438&_task=login&_action=login)`,
    ],
  },
  {
    id: 'imap-login-failed',
    title: 'IMAP logins refused',
    meaning:
      'The IMAP server refused the login: a wrong password, an unknown user or a locked account. Roundcube writes "Login failed for <user> against <IMAP host> from <client address>". Counted by user and client address: a few from one user are typing errors; many from one address, against one or several users, look like password guessing.',
    fix: [
      'Occasional failures need nothing. For many from one address, have cPHulk (WHM: Security Center, cPHulk Brute Force Protection) block it, or block it in the firewall.',
    ],
    example: [
      '[27-Jan-2026 08:03:08 -0800]: <bq90cn5q> IMAP Error: Login failed for alice@example.test against 127.0.0.1 from 127.0.0.1. AUTHENTICATE PLAIN: Authentication failed. in /usr/share/roundcube/program/lib/Roundcube/rcube_imap.php on line 211 (POST /cpsess9165194812/3rdparty/roundcube/index.php?login=1&post_login=84152361528921&_task=login&_action=login)',
    ],
  },
  {
    id: 'imap-unreachable',
    title: 'The IMAP server could not be reached',
    meaning: 'Roundcube could not connect to the IMAP server ("Could not connect to <host>:<port>: Connection refused"): it was down or restarting at those times. Mail could not be read then.',
    fix: ["Check the IMAP service (Dovecot on cPanel) at those times: its log, restarts and the server's load."],
    example: [
      '[27-Jan-2026 08:09:24 -0800]: <ns0tbuc0> IMAP Error: Login failed for alice@example.test against 127.0.0.1 from 127.0.0.1. Could not connect to 127.0.0.1:10143: Connection refused in /usr/share/roundcube/program/lib/Roundcube/rcube_imap.php on line 211 (POST /cpsess9165194812/3rdparty/roundcube/index.php?_task=mail&_action=refresh)',
    ],
  },
];

export function knowledge(id: string): Knowledge {
  const k = KNOWLEDGE.find((x) => x.id === id);
  if (k === undefined) throw new Error(`no knowledge "${id}"`);
  return k;
}
