package daemon

import (
	"fmt"
	"os"
	"strings"
)

// Modes (issue 35.9): a database at 0644 in a 0755 data directory was read
// by another local user: every game, secret moves and addresses included.
// The store refuses a master key file its group or others can read, and
// config a password file (config.readSecretFile); a readable data
// directory, database or hub directory is a WARN in serve's log, with the
// chmod that fixes it. (A warning, not a refusal: the store creates them
// 0700 and 0600, and a mode changed on purpose, for a backup user's
// group, say, should not stop the service.)

// looseModes logs a WARN for each of the data directory, the database and
// the hub's directory (when there) that others than its owner can read.
func (d *Daemon) looseModes(dbPath string) {
	for _, f := range []struct{ path, what, fix string }{
		{d.cfg.Service.DataDir, "the data directory", "700"},
		{dbPath, "the database", "600"},
		{d.cfg.Service.DataDir + string(os.PathSeparator) + "hub", "the mail hub's directory (its accounts' passwords and mail)", "700"},
	} {
		fi, err := os.Stat(f.path)
		if err != nil {
			continue // not there (the hub's, without the hub)
		}
		if perm := fi.Mode().Perm(); perm&0o077 != 0 {
			d.log.Warn(fmt.Sprintf("%s can be read by other users than its owner; to fix: chmod %s %s", f.what, f.fix, shellWord(f.path)),
				"path", f.path, "mode", fmt.Sprintf("%04o", perm), "fix", "chmod "+f.fix+" "+shellWord(f.path))
		}
	}
}

// shellWord quotes a path for a shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
