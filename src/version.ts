// The program's version and home, as package.json says (a test keeps them equal).
export const VERSION = '0.1.0';
export const HOMEPAGE = 'https://github.com/webmail-log/webmail-log';
