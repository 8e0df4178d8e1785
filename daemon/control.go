package daemon

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/store"
)

// ControlSocket is the name of the daemon's control socket in its data
// directory. Commands sent on it run inside the daemon, which holds the
// database: `bottlepost backup` uses it to copy the database online.
const ControlSocket = "control.sock"

// serveControl answers requests on the control socket until it is closed.
// One request per connection: "backup PATH", "compact PATH" or
// "export GAME PATH" → "ok" or "error TEXT".
func (d *Daemon) serveControl(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			c.SetDeadline(time.Now().Add(10 * time.Minute))
			line, err := bufio.NewReader(c).ReadString('\n')
			if err != nil {
				return
			}
			verb, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
			switch verb {
			case "backup":
				if !filepath.IsAbs(arg) {
					fmt.Fprintln(c, "error the backup path must be absolute")
					return
				}
				if err := d.st.BackupFile(arg); err != nil {
					fmt.Fprintln(c, "error", err)
					return
				}
				d.log.Info("backup written", "path", arg)
				fmt.Fprintln(c, "ok")
			case "compact":
				if !filepath.IsAbs(arg) {
					fmt.Fprintln(c, "error the path of the compacted copy must be absolute")
					return
				}
				if err := d.st.Compact(arg); err != nil {
					fmt.Fprintln(c, "error", err)
					return
				}
				d.log.Info("compacted copy written", "path", arg)
				fmt.Fprintln(c, "ok")
			case "export":
				id, path, _ := strings.Cut(arg, " ")
				if err := d.exportTo(id, path); err != nil {
					fmt.Fprintln(c, "error", err)
					return
				}
				fmt.Fprintln(c, "ok")
			default:
				fmt.Fprintf(c, "error unknown request %q\n", verb)
			}
		}()
	}
}

// listenControl opens the control socket, readable by the owner only.
func (d *Daemon) listenControl() (net.Listener, error) {
	path := filepath.Join(d.cfg.Service.DataDir, ControlSocket)
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return nil, fmt.Errorf("daemon: another bottlepost serves %s", d.cfg.Service.DataDir)
	}
	os.Remove(path) // a stale socket of a daemon that died
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("daemon: control socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("daemon: control socket: %w", err)
	}
	return ln, nil
}

// Request sends one request to the daemon serving dataDir and returns its
// answer. ErrNotRunning means no daemon answers there.
func Request(dataDir, request string) (string, error) {
	c, err := net.DialTimeout("unix", filepath.Join(dataDir, ControlSocket), 2*time.Second)
	if err != nil {
		return "", ErrNotRunning
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Minute))
	if _, err := fmt.Fprintln(c, request); err != nil {
		return "", fmt.Errorf("daemon: control: %w", err)
	}
	answer, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("daemon: control: %w", err)
	}
	answer = strings.TrimSpace(answer)
	if rest, ok := strings.CutPrefix(answer, "error "); ok {
		return "", errors.New(rest)
	}
	return answer, nil
}

// ErrNotRunning is returned by Request when no daemon serves the data directory.
var ErrNotRunning = errors.New("daemon: no running bottlepost serves that data directory")

// exportTo writes a finished game's export (PGN with its proofs) to a new
// file at path.
func (d *Daemon) exportTo(id, path string) error {
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil || n == 0 {
		return fmt.Errorf("%q is not a game number", id)
	}
	if !filepath.IsAbs(path) {
		return errors.New("the export path must be absolute")
	}
	var pgn []byte
	if err := d.st.View(func(tx *store.Tx) error {
		var err error
		pgn, err = game.FinalPGN(tx, n)
		return err
	}); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(pgn); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}
