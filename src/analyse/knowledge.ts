// What known errors in the log mean and what to do about them: the knowledge behind the
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
// - MySQL (PDO's errorInfo[1] is the server's error number): 1146 "Table 'db.t' doesn't
//   exist", 1205 "Lock wait timeout exceeded; try restarting transaction", 1213 "Deadlock
//   found when trying to get lock; try restarting transaction", 2006 "MySQL server has gone
//   away", 2013 "Lost connection to MySQL server during query", 2002 "Connection refused" /
//   "Can't connect to local MySQL server through socket". A failed connect is thrown by
//   PDO's constructor and logged as its exception text, "SQLSTATE[HY000] [2002] …", which
//   has no "[code] message (SQL Query: …)" shape (a malformed DB Error).
// - PostgreSQL (pdo_pgsql's errorInfo[1] is libpq's result status, 7 for a fatal error;
//   errorInfo[2] is the server's message with its LINE and caret lines): 42P01
//   undefined_table "relation \"t\" does not exist", 40P01 deadlock_detected "deadlock
//   detected", 55P03 lock_not_available "could not obtain lock on row in relation …" and
//   "canceling statement due to lock timeout", and lost connections: "server closed the
//   connection unexpectedly", "could not connect to server", "terminating connection due
//   to administrator command", "no connection to the server".
// - Roundcube 1.6.5 writes IMAP login failures as "Login failed for <user> against <host>
//   from <client>. <server's answer>" (the real samples), and "Could not connect to
//   <host>:<port>: Connection refused" when the IMAP server is down. Releases 1.0 to 1.3
//   write "Login failed for <user> from <client>. <answer>", older ones end at the client;
//   behind a proxy the client is "<REMOTE_ADDR>(X-Real-IP: …,X-Forwarded-For: …)"
//   (rcube_utils::remote_ip).

import { noSuchTable } from '../parse/table.js';

export type Backend = 'sqlite' | 'mysql' | 'postgres';

export const BACKEND_NAMES: Record<Backend, string> = { sqlite: 'SQLite', mysql: 'MySQL', postgres: 'PostgreSQL' };

/** A step of a fix: for every backend, or for one. Commands stand in backticks. */
export interface Step {
  text: string;
  backend?: Backend;
}

export interface Knowledge {
  id: string;
  title: string;
  /** What it means, in plain words. */
  meaning: string;
  /** What to do, step by step. */
  fix: readonly Step[];
  /** Log excerpts of it, one per backend where they differ: a test checks each fires this id. */
  example: readonly string[];
  /** Recognises a well-shaped DB error by its code and message: its backend, or null. */
  db?: (code: string, message: string) => Backend | null;
  /** Recognises the text of a DB Error without the shape (a failed connect): its backend, or null. */
  dbText?: (text: string) => Backend | null;
}

const SRC = 'in /usr/share/roundcube/program/lib/Roundcube/rcube_db.php on line 578';
const REFRESH = '(POST /cpsess9263415718/3rdparty/roundcube/index.php?_task=mail&_action=refresh)';
const AT = (t = '08:58:22') => `[10-Mar-2026 ${t} +0100]: <3fa9c2d1> `;
const QUERY = (table: string) => `SELECT *, calendar_id AS id FROM ${table} WHERE user_id = '1' ORDER BY name`;
const LOOKUP = (table: string, t?: string) => `${AT(t)}DB Error: [1] no such table: ${table} (SQL Query: ${QUERY(table)}) ${SRC} ${REFRESH}`;
const MYSQL_LOOKUP = (table: string) => `${AT()}DB Error: [1146] Table 'roundcube.${table}' doesn't exist (SQL Query: ${QUERY(table)}) ${SRC} ${REFRESH}`;
const PG_LOOKUP = (table: string) =>
  `${AT()}DB Error: [7] ERROR:  relation "${table}" does not exist\nLINE 1: SELECT *, calendar_id AS id FROM ${table} WHERE user_id = '1...\n                                         ^ (SQL Query: ${QUERY(table)}) ${SRC} ${REFRESH}`;
const DB_ERROR = (code: string, message: string, query = "UPDATE session SET changed = now() WHERE sess_id = 'x'") => `${AT('09:02:05')}DB Error: [${code}] ${message} (SQL Query: ${query}) ${SRC} ${REFRESH}`;

const SQLITE_FILE = "Under cPanel every mailbox has its own SQLite database, /home/USER/etc/DOMAIN/MAILBOX.rcube.db, USER being the cPanel account (the account's own login: /home/USER/etc/USER.rcube.db).";
const ROUNDCUBE_DIR = "from Roundcube's directory (on cPanel /usr/local/cpanel/base/3rdparty/roundcube)";

/** The calendar table a "missing table" message of any backend names, and the backend. */
export function missingTable(message: string): { name: string; backend: Backend } | null {
  const sqlite = noSuchTable(message);
  if (sqlite !== null) return { name: sqlite, backend: 'sqlite' };
  let m = /Table '([^']*)' doesn't exist/.exec(message);
  if (m) return { name: lastPart(m[1]), backend: 'mysql' };
  m = /relation "([^"]*)" does not exist/.exec(message);
  if (m) return { name: lastPart(m[1]), backend: 'postgres' };
  return null;
}

function lastPart(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

function tableSteps(driver: 'database' | 'caldav'): Step[] {
  const dir = `plugins/calendar/drivers/${driver}/SQL`;
  return [
    { text: `Create the tables with Roundcube's own tool, ${ROUNDCUBE_DIR}; it runs the schema file of the configured database: \`bin/initdb.sh --dir=${dir}\`` },
    { backend: 'sqlite', text: `For a cPanel mailbox's SQLite database, as its owner: \`cd ${dir}\` then \`sqlite3 ~USER/etc/DOMAIN/MAILBOX.rcube.db < sqlite.initial.sql\`` },
    { backend: 'mysql', text: `Or by hand on MySQL: \`cd ${dir}\` then \`mysql roundcube < mysql.initial.sql\`` },
    { backend: 'postgres', text: `Or by hand on PostgreSQL: \`cd ${dir}\` then \`psql roundcube < postgres.initial.sql\`` },
  ];
}

/** A missing-table matcher for one side of the refresh lookups. */
function missing(remote: boolean): (code: string, message: string) => Backend | null {
  return (_code, message) => {
    const t = missingTable(message);
    if (t === null || !/^[A-Za-z0-9_]*calendars$/.test(t.name)) return null;
    return t.name.endsWith('caldav_calendars') === remote ? t.backend : null;
  };
}

const has = (message: string, ...texts: string[]) => texts.some((t) => message.includes(t));

export const KNOWLEDGE = [
  {
    id: 'calendar-tables-missing',
    title: 'Both calendar tables are missing',
    meaning:
      "On every mailbox refresh the calendar plugin reads the user's local calendars (table calendars) and remote-sync CalDAV calendars (table caldav_calendars), and both reads fail with a missing table: the plugin is enabled, but its database schema was never created in this database. " +
      SQLITE_FILE,
    fix: [
      ...tableSteps('database'),
      { text: 'Then the same for the CalDAV driver: `bin/initdb.sh --dir=plugins/calendar/drivers/caldav/SQL`' },
      { text: "Later schema changes come with plugin updates: run bin/updatedb.sh with --package=calendar-database and the same --dir (--package=calendar-caldav for the CalDAV driver's)." },
      { text: "If nobody uses the calendar, remove 'calendar' from $config['plugins'] instead." },
    ],
    example: [LOOKUP('calendars'), LOOKUP('caldav_calendars')],
  },
  {
    id: 'local-calendar-table-missing',
    title: 'The local calendar table is missing',
    meaning: 'The calendar lookups on refresh fail only for the local calendars (table calendars); the CalDAV tables exist. The database driver part of the calendar plugin schema was never created. ' + SQLITE_FILE,
    fix: tableSteps('database'),
    example: [LOOKUP('calendars'), MYSQL_LOOKUP('calendars'), PG_LOOKUP('calendars')],
    db: missing(false),
  },
  {
    id: 'remote-calendar-table-missing',
    title: 'The CalDAV calendar table is missing',
    meaning: 'The calendar lookups on refresh fail only for the remote-sync calendars (table caldav_calendars): the CalDAV driver of the calendar plugin is enabled but its schema was never created. ' + SQLITE_FILE,
    fix: tableSteps('caldav'),
    example: [LOOKUP('caldav_calendars'), MYSQL_LOOKUP('caldav_calendars'), PG_LOOKUP('caldav_calendars')],
    db: missing(true),
  },
  {
    id: 'database-locked',
    title: 'The database was locked',
    meaning:
      'A query waited for a lock that another connection held, and gave up: SQLite answered SQLITE_BUSY ("database is locked"), MySQL error 1205 ("Lock wait timeout exceeded"), PostgreSQL lock_not_available. A query waits before it fails, so such entries can be stamped seconds after the request began, which also explains pair-same-second violations next to them.',
    fix: [
      { backend: 'sqlite', text: 'Look for what else writes to the .rcube.db file at those times: a backup or cron job copying it, or several webmail sessions of the same mailbox working at once. Make sure the directory of the database is writable by its owner, so that SQLite can create its journal (-journal, or -wal and -shm) files next to it.' },
      { backend: 'mysql', text: 'Find the transaction that holds the lock: `mysql -e "SHOW ENGINE INNODB STATUS\\G"` (section TRANSACTIONS). Long-running imports, backups without --single-transaction and a raised innodb_lock_wait_timeout are the usual causes.' },
      { backend: 'postgres', text: 'See the locks that wait, and join their pid to pg_stat_activity to find who holds them: `psql roundcube -c "SELECT * FROM pg_locks WHERE NOT granted"` Look at lock_timeout in the server settings.' },
    ],
    example: [
      DB_ERROR('5', 'database is locked', QUERY('calendars')),
      DB_ERROR('1205', 'Lock wait timeout exceeded; try restarting transaction'),
      DB_ERROR('7', 'ERROR:  canceling statement due to lock timeout'),
    ],
    db: (code, message) => {
      if (has(message, 'database is locked', 'database table is locked')) return 'sqlite';
      if (code === '1205' || has(message, 'Lock wait timeout exceeded')) return 'mysql';
      if (has(message, 'could not obtain lock', 'canceling statement due to lock timeout')) return 'postgres';
      return null;
    },
  },
  {
    id: 'database-deadlock',
    title: 'Database transactions deadlocked',
    meaning: 'Two transactions waited for each other and the server aborted one of them: MySQL error 1213 ("Deadlock found when trying to get lock"), PostgreSQL deadlock_detected. The request whose query was aborted failed.',
    fix: [
      { backend: 'mysql', text: 'See the latest deadlock: `mysql -e "SHOW ENGINE INNODB STATUS\\G"` (section LATEST DETECTED DEADLOCK). An occasional one needs nothing; many point at a plugin or a cron job that locks the same rows in another order.' },
      { backend: 'postgres', text: "The server's log names both statements of each deadlock (log_lock_waits = on shows the waits before them). An occasional one needs nothing; many point at a plugin or a job that locks the same rows in another order." },
    ],
    example: [DB_ERROR('1213', 'Deadlock found when trying to get lock; try restarting transaction'), DB_ERROR('7', 'ERROR:  deadlock detected\nDETAIL:  Process 4242 waits for ShareLock on transaction 917; blocked by process 4243.')],
    db: (code, message) => {
      if (code === '1213' || has(message, 'Deadlock found when trying to get lock')) return 'mysql';
      if (has(message, 'deadlock detected')) return 'postgres';
      return null;
    },
  },
  {
    id: 'database-readonly',
    title: 'The SQLite database is read-only',
    meaning:
      'SQLite answered SQLITE_READONLY ("attempt to write a readonly database"): the web server process may read the database file but not write it, or may not create the journal file in its directory, which SQLite needs for every write. ' + SQLITE_FILE,
    fix: [
      { backend: 'sqlite', text: 'Give the file and its directory back to the cPanel user with owner write permission; a healthy database file shows -rw------- USER USER: `chown USER:USER ~USER/etc/DOMAIN/MAILBOX.rcube.db`' },
    ],
    example: [DB_ERROR('8', 'attempt to write a readonly database')],
    db: (_code, message) => (has(message, 'attempt to write a readonly database') ? 'sqlite' : null),
  },
  {
    id: 'database-connection-lost',
    title: 'The database server could not be reached',
    meaning:
      'Roundcube could not connect to its database server, or lost the connection during a query: MySQL errors 2002 ("Connection refused", or no socket), 2006 ("MySQL server has gone away") and 2013; PostgreSQL "could not connect to server" and "server closed the connection unexpectedly". Logins and refreshes fail while it lasts.',
    fix: [
      { backend: 'mysql', text: "Check the MySQL service at those times: `systemctl status mysqld` (mariadb on newer cPanel servers) and its error log; 2006 during long idle connections points at wait_timeout, a large query at max_allowed_packet." },
      { backend: 'postgres', text: 'Check the PostgreSQL service at those times: `systemctl status postgresql` and its log; restarts, max_connections reached and the server being out of memory are the usual causes.' },
    ],
    example: [
      DB_ERROR('2006', 'MySQL server has gone away', QUERY('calendars')),
      `${AT('09:02:05')}DB Error: SQLSTATE[HY000] [2002] Connection refused in /usr/share/roundcube/program/lib/Roundcube/rcube_db.php on line 201 (GET /cpsess9263415718/3rdparty/roundcube/index.php)`,
      DB_ERROR('7', 'server closed the connection unexpectedly\n\tThis probably means the server terminated abnormally\n\tbefore or while processing the request.'),
    ],
    db: connectionLost,
    dbText: (text) => connectionLost('', text),
  },
  {
    id: 'empty-db-error',
    title: 'DB errors without any detail on login and on the entry page',
    meaning:
      'Roundcube logged a failed database call whose error had neither a driver code nor a message, and no query text: it writes "[code] message" from PDO, and PDO gave nothing. They come with the login completion (login=1&post_login=…) and the entry page, before any mailbox refresh.',
    fix: [
      { text: "Turn on $config['sql_debug'] = true; for a while: Roundcube then logs every query to <log_dir>/sql (or syslog), which shows the statement that failed." },
      { text: 'Check that the mailbox database exists and can be opened by its owner. ' + SQLITE_FILE },
    ],
    example: [
      `[27-Jan-2026 08:03:17 -0800]: <bq90cn5q> DB Error: []  (SQL Query: ) in /usr/share/roundcube/program/lib/Roundcube/rcube_db.php on line 578 (POST /cpsess9165194812/3rdparty/roundcube/index.php?login=1&post_login=46480620395438&_task=login&_action=login)`,
    ],
  },
  {
    id: 'imap-login-failed',
    title: 'IMAP logins refused',
    meaning:
      'The IMAP server refused the login: a wrong password, an unknown user or a locked account. Roundcube writes "Login failed for <user> against <IMAP host> from <client address>" (before 1.4 without "against <host>"). Counted by user and client address: a few from one user are typing errors; many from one address, against one or several users, look like password guessing. A line whose address cannot be told for sure (the user name or the server\'s answer holds another "from <address>") is counted under "unknown".',
    fix: [
      { text: 'Occasional failures need nothing. For many from one address, have cPHulk (WHM: Security Center, cPHulk Brute Force Protection) block it, or block it in the firewall.' },
    ],
    example: [
      '[27-Jan-2026 08:03:08 -0800]: <bq90cn5q> IMAP Error: Login failed for alice@example.test against 127.0.0.1 from 127.0.0.1. AUTHENTICATE PLAIN: Authentication failed. in /usr/share/roundcube/program/lib/Roundcube/rcube_imap.php on line 211 (POST /cpsess9165194812/3rdparty/roundcube/index.php?login=1&post_login=84152361528921&_task=login&_action=login)',
      '[27-Jan-2026 08:03:08 -0800]: <bq90cn5q> IMAP Error: Login failed for bob from 203.0.113.7. LOGIN: Authentication failed. in /usr/share/roundcube/program/lib/Roundcube/rcube_imap.php on line 184 (POST /cpsess9165194812/3rdparty/roundcube/index.php?_task=login)',
    ],
  },
  {
    id: 'imap-unreachable',
    title: 'The IMAP server could not be reached',
    meaning: 'Roundcube could not connect to the IMAP server ("Could not connect to <host>:<port>: Connection refused"): it was down or restarting at those times. Mail could not be read then.',
    fix: [{ text: "Check the IMAP service (Dovecot on cPanel) at those times: its log, restarts and the server's load." }],
    example: [
      '[27-Jan-2026 08:09:24 -0800]: <ns0tbuc0> IMAP Error: Login failed for alice@example.test against 127.0.0.1 from 127.0.0.1. Could not connect to 127.0.0.1:10143: Connection refused in /usr/share/roundcube/program/lib/Roundcube/rcube_imap.php on line 211 (POST /cpsess9165194812/3rdparty/roundcube/index.php?_task=mail&_action=refresh)',
    ],
  },
] as const satisfies readonly Knowledge[];

/** A diagnosis id: a misspelt one does not compile. */
export type DiagnosisId = (typeof KNOWLEDGE)[number]['id'];

function connectionLost(code: string, message: string): Backend | null {
  if (['2002', '2006', '2013'].includes(code) || has(message, 'MySQL server has gone away', 'Lost connection to MySQL server', "Can't connect to local MySQL server", "Can't connect to MySQL server", '[2002]')) return 'mysql';
  if (has(message, 'could not connect to server', 'server closed the connection unexpectedly', 'terminating connection due to administrator command', 'no connection to the server', 'connection to server at')) return 'postgres';
  return null;
}

/** The steps of a fix for the backends seen (all of them when none was told). */
export function stepsFor(k: Knowledge, backends: ReadonlySet<Backend>): string[] {
  return k.fix.filter((s) => s.backend === undefined || backends.size === 0 || backends.has(s.backend)).map((s) => s.text);
}
