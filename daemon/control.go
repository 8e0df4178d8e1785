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

	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/store"
)

// ControlSocket is the name of the daemon's control socket in its data
// directory. Commands sent on it run inside the daemon, which holds the
// database: `bottlepost backup` uses it to copy the database online. It
// works whatever the length of the directory's path (controlAddr).
const ControlSocket = "control.sock"

// serveControl answers requests on the control socket until it is closed.
// One request per connection: "backup PATH", "compact PATH",
// "export GAME PATH" or "check" → "ok" or "error TEXT"; check first sends a
// line "problem TEXT" per problem found, and ends with "ok N". The ratings
// requests are answerRatings's.
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
				// (bbolt's pages, every game's chain and sealed records, every record,
				// the indexes) and the game service's (its data in every game, player
				// and setting).
				ctx := context.Background()
				problems := append(store.Problems(d.st.Verify(ctx)), store.Problems(game.Check(ctx, d.st))...)
				for _, p := range problems {
					fmt.Fprintln(c, "problem", strings.ReplaceAll(p.Error(), "\n", " "))
				}
				d.log.Info("store checked on request", "problems", len(problems))
				fmt.Fprintln(c, "ok", len(problems))
			case "ratings", "ratings-rebuild":
				d.answerRatings(c, verb, arg)
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
	dir := d.cfg.Service.DataDir
	path := filepath.Join(dir, ControlSocket)
	if c, err := dialControl(dir, time.Second); err == nil {
		c.Close()
		return nil, fmt.Errorf("daemon: another bottlepost serves %s", dir)
	}
	os.Remove(path) // a stale socket of a daemon that died
	addr, release, err := controlAddr(dir)
	if err != nil {
		return nil, fmt.Errorf("daemon: control socket: %w", err)
	}
	ln, err := net.Listen("unix", addr)
	release()
	if err != nil {
		return nil, fmt.Errorf("daemon: control socket %s: %w", path, err)
	}
	// Closing removes the file by its own path: addr may have named it
	// through a handle that is closed by then.
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	cl := &controlListener{Listener: ln, path: path}
	if err := os.Chmod(path, 0o600); err != nil {
		cl.Close()
		return nil, fmt.Errorf("daemon: control socket: %w", err)
	}
	return cl, nil
}

// controlListener is the bound control socket; Close removes its file.
type controlListener struct {
	net.Listener
	path string
}

func (l *controlListener) Close() error {
	err := l.Listener.Close()
	os.Remove(l.path)
	return err
}

// maxSocketPath is the longest path a Unix socket address surely holds:
// sun_path is 108 bytes on Linux and 104 on the BSDs and macOS, the
// terminating NUL included.
const maxSocketPath = 103

// controlAddr is the address to bind or dial for the control socket of
// dataDir: its path when short enough for a socket address; otherwise, on
// Linux, the same file reached through /proc/self/fd/N/control.sock, N an
// open handle on dataDir, which is short whatever dataDir's path. release
// closes the handle: call it once the socket is bound or connected.
func controlAddr(dataDir string) (addr string, release func(), err error) {
	path := filepath.Join(dataDir, ControlSocket)
	if len(path) <= maxSocketPath {
		return path, func() {}, nil
	}
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		return "", nil, fmt.Errorf("the path %s is longer than the %d bytes a Unix socket address holds, and this system has no /proc/self/fd to shorten it: choose a shorter service.data_dir", path, maxSocketPath)
	}
	dir, err := os.Open(dataDir)
	if err != nil {
		return "", nil, err
	}
	return fmt.Sprintf("/proc/self/fd/%d/%s", dir.Fd(), ControlSocket), func() { dir.Close() }, nil
}

// dialControl connects to the control socket of dataDir.
func dialControl(dataDir string, timeout time.Duration) (net.Conn, error) {
	addr, release, err := controlAddr(dataDir)
	if err != nil {
		return nil, err
	}
	defer release()
	return net.DialTimeout("unix", addr, timeout)
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
	c, err := dialControl(dataDir, 2*time.Second)
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
