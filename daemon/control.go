package daemon

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/store"
)

// ControlSocket is the name of the daemon's control socket in its data
// directory. Commands sent on it run inside the daemon, which holds the
// database: `bottlepost backup` uses it to copy the database online.
const ControlSocket = "control.sock"

// serveControl answers requests on the control socket until it is closed.
// One request per connection: "backup PATH", "compact PATH",
// "export GAME PATH" or "check" → "ok" or "error TEXT"; check first sends a
// line "problem TEXT" per problem found, and ends with "ok N".
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
				if err := d.copying(arg, d.st.BackupFile); err != nil {
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
				if err := d.copying(arg, d.st.Compact); err != nil {
					fmt.Fprintln(c, "error", err)
					return
				}
				d.log.Info("compacted copy written", "path", arg)
				fmt.Fprintln(c, "ok")
			case "check":
				// One line per problem, then how many: the whole store's check
				// (bbolt's pages, every game's chain and sealed records, the indexes).
				problems := store.Problems(d.st.Verify(context.Background()))
				for _, p := range problems {
					fmt.Fprintln(c, "problem", strings.ReplaceAll(p.Error(), "\n", " "))
				}
				d.log.Info("store checked on request", "problems", len(problems))
				fmt.Fprintln(c, "ok", len(problems))
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
//
// A service that stops (or dies) before it answers gives ErrStopped.
func Request(dataDir, request string) (string, error) {
	answer, _, err := RequestLines(dataDir, request)
	return answer, err
}

// RequestLines is Request for the requests that send lines before their
// answer (check): it returns those lines ("problem TEXT"), without their
// keyword, as well.
func RequestLines(dataDir, request string) (answer string, lines []string, err error) {
	c, err := net.DialTimeout("unix", filepath.Join(dataDir, ControlSocket), 2*time.Second)
	if err != nil {
		return "", nil, ErrNotRunning
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Minute))
	if _, err := fmt.Fprintln(c, request); err != nil {
		return "", nil, fmt.Errorf("daemon: control: %w", err)
	}
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return "", lines, fmt.Errorf("%w (%v)", ErrStopped, err)
		}
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "problem "); ok {
			lines = append(lines, rest)
			continue
		}
		if rest, ok := strings.CutPrefix(line, "error "); ok {
			return "", lines, errors.New(rest)
		}
		return line, lines, nil
	}
}

// ErrStopped is returned by Request when the service closed the connection
// before it answered: it stopped, or died, while doing the work.
var ErrStopped = errors.New("daemon: the service stopped before it answered")

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
		pgn, err = record.FinalPGN(tx, n)
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

// copyNote is the prefix of the notes in the data directory that record a
// backup or compaction under way: a daemon killed during the copy leaves
// the note, and the next one removes the copy's unfinished file.
const copyNote = ".copy-in-progress-"

// copying writes a copy of the database to dst with write, recording the
// copy in a note while it runs.
func (d *Daemon) copying(dst string, write func(string) error) error {
	note, err := os.CreateTemp(d.cfg.Service.DataDir, copyNote+"*")
	if err != nil {
		return fmt.Errorf("daemon: note of the copy: %w", err)
	}
	_, werr := note.WriteString(dst)
	if serr := note.Sync(); werr == nil {
		werr = serr
	}
	note.Close()
	if werr != nil {
		os.Remove(note.Name())
		return fmt.Errorf("daemon: note of the copy: %w", werr)
	}
	defer os.Remove(note.Name())
	return write(dst)
}

// finishInterruptedCopies removes what backups and compactions cut short
// by the death of an earlier daemon left behind, and says so.
func (d *Daemon) finishInterruptedCopies() {
	notes, _ := filepath.Glob(filepath.Join(d.cfg.Service.DataDir, copyNote+"*"))
	for _, n := range notes {
		dst, err := os.ReadFile(n)
		if err == nil && len(dst) > 0 {
			removed, err := store.RemoveStaleCopies(string(dst))
			switch {
			case err != nil:
				d.log.Warn("a copy of the database was cut short when the service stopped; its unfinished file could not be removed", "to", string(dst), "err", err)
				continue
			case len(removed) > 0:
				d.log.Warn("a copy of the database was cut short when the service stopped; its unfinished file was removed: make the copy again", "to", string(dst), "removed", removed)
			}
		}
		os.Remove(n)
	}
}
