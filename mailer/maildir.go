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
	if err := MakeMaildir(m.Dir); err != nil {
		return err
	}
	for {
		if _, err := m.Pass(handle); err != nil {
			m.Log.Warn("maildir", "dir", m.Dir, "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(m.Interval):
		}
	}
}

// Pass handles every message in new/ once, oldest first, and returns how
// many were handled.
func (m *MaildirSource) Pass(handle Handler) (int, error) {
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

// MakeMaildir creates the tmp, new and cur folders of a Maildir.
func MakeMaildir(dir string) error {
	for _, sub := range []string{"tmp", "new", "cur"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return fmt.Errorf("mailer: maildir: %w", err)
		}
	}
	return nil
}

// DeliverMaildir stores a message in a Maildir the way an MTA does: written
// and synced in tmp/, then renamed into new/, so a reader never sees half a
// message. It returns the file's name.
func DeliverMaildir(dir string, msg []byte) (string, error) {
	if err := MakeMaildir(dir); err != nil {
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
