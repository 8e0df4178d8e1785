package mailer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// MaildirSource reads mail delivered into a Maildir (its new/ folder); a
// handled message moves to cur/ with the Seen flag, a failed one stays in
// new/ and is offered again on the next pass.
type MaildirSource struct {
	Dir      string
	Interval time.Duration
	MaxBytes int64
	Log      *slog.Logger
}

// Run polls the Maildir until ctx ends.
func (m *MaildirSource) Run(ctx context.Context, handle Handler) error {
	if m.Log == nil {
		m.Log = slog.New(slog.DiscardHandler)
	}
	if m.Interval <= 0 {
		m.Interval = 10 * time.Second
	}
	if err := makeMaildir(m.Dir); err != nil {
		return err
	}
	for {
		if _, err := m.pass(handle); err != nil {
			m.Log.Warn("maildir", "dir", m.Dir, "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(m.Interval):
		}
	}
}

// pass handles every message in new/ once, oldest first, and returns how
// many were handled.
func (m *MaildirSource) pass(handle Handler) (int, error) {
	newDir := filepath.Join(m.Dir, "new")
	entries, err := os.ReadDir(newDir)
	if err != nil {
		return 0, fmt.Errorf("mailer: maildir: %w", err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	n := 0
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		path := filepath.Join(newDir, e.Name())
		info, err := e.Info()
		if err != nil {
			continue // gone meanwhile
		}
		if m.MaxBytes > 0 && info.Size() > m.MaxBytes {
			m.Log.Warn("maildir message too large; not read", "file", e.Name(), "size", info.Size())
		} else {
			raw, err := os.ReadFile(path)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return n, fmt.Errorf("mailer: maildir: %w", err)
			}
			if err := handle(raw); err != nil {
				m.Log.Error("maildir message not handled; it stays for retry", "file", e.Name(), "err", err)
				continue
			}
		}
		base, _, _ := strings.Cut(e.Name(), ":")
		if err := os.Rename(path, filepath.Join(m.Dir, "cur", base+":2,S")); err != nil {
			return n, fmt.Errorf("mailer: maildir: %w", err)
		}
		n++
	}
	return n, nil
}

// makeMaildir creates the tmp, new and cur folders of a Maildir. A Maildir
// made here is private (0700); the folders of one that exists take its
// mode, so a Maildir shared with an MTA's pipe user through a group
// (mode 2770, see docs/deploy.md) stays shared.
func makeMaildir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("mailer: maildir: %w", err)
	}
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("mailer: maildir: %w", err)
	}
	for _, sub := range []string{"tmp", "new", "cur"} {
		p := filepath.Join(dir, sub)
		if _, err := os.Stat(p); err == nil {
			continue
		}
		if err := os.Mkdir(p, 0o700); err != nil && !os.IsExist(err) {
			return fmt.Errorf("mailer: maildir: %w", err)
		}
		if err := os.Chmod(p, st.Mode()&(os.ModePerm|os.ModeSetgid)); err != nil {
			return fmt.Errorf("mailer: maildir: %w", err)
		}
	}
	return nil
}

// DeliverMaildir stores a message in a Maildir the way an MTA does: written
// and synced in tmp/, then renamed into new/, so a reader never sees half a
// message. It returns the file's name. The file is private to its writer
// (0600), or readable by the group (0640) when new/ is group-writable: a
// Maildir shared between serve and an MTA's pipe user.
func DeliverMaildir(dir string, msg []byte) (string, error) {
	if err := makeMaildir(dir); err != nil {
		return "", err
	}
	var r [8]byte
	rand.Read(r[:])
	host, _ := os.Hostname()
	host = strings.NewReplacer("/", "_", ":", "_").Replace(host)
	name := fmt.Sprintf("%d.P%d_%s.%s", time.Now().UnixNano(), os.Getpid(), hex.EncodeToString(r[:]), host)
	tmp := filepath.Join(dir, "tmp", name)
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return "", fmt.Errorf("mailer: maildir: %w", err)
	}
	if st, err := os.Stat(filepath.Join(dir, "new")); err == nil && st.Mode().Perm()&0o020 != 0 {
		if err := f.Chmod(0o640); err != nil {
			f.Close()
			os.Remove(tmp)
			return "", fmt.Errorf("mailer: maildir: %w", err)
		}
	}
	if _, err := f.Write(msg); err != nil {
		f.Close()
		os.Remove(tmp)
		return "", fmt.Errorf("mailer: maildir: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return "", fmt.Errorf("mailer: maildir: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("mailer: maildir: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "new", name)); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("mailer: maildir: %w", err)
	}
	return name, nil
}
