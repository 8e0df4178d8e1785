package mailer

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-imap/v2"
)

// The hub's files in its directory (Hub.Dir, the daemon's DATA/hub):
//
//	passwords/NAME     an account's password (mode 0600), when the hub has no shared one
//	mail/NAME/tmp/     a delivery being written
//	mail/NAME/new/     each message of the account's INBOX, one file each, in arrival order
//
// A message is written and synced into new/ before the hub answers 250 to
// the SMTP DATA that brought it, and its file is removed when the message
// leaves the INBOX (expunged, or moved to another mailbox). At start the
// files are read back into the INBOXes, so a crash or a stop loses nothing
// the hub accepted. Other mailboxes, and flags, live in memory only.

// accountFile is the file name of an account: the name itself when it is
// made of safe characters, else "=" and its hex encoding.
func accountFile(name string) string {
	if safeName.MatchString(name) {
		return name
	}
	return "=" + hex.EncodeToString([]byte(name))
}

// accountOfFile reverses accountFile.
func accountOfFile(file string) (string, bool) {
	if h, ok := strings.CutPrefix(file, "="); ok {
		b, err := hex.DecodeString(h)
		return string(b), err == nil && len(b) > 0
	}
	return file, safeName.MatchString(file)
}

var safeName = regexp.MustCompile(`^[a-z0-9_][a-z0-9._-]{0,63}$`)

// HubPassword returns account name's password on a hub kept in dir,
// creating it (random, in a file of mode 0600) when the account has none
// yet. The running hub reads the same file, so this works while it runs.
func HubPassword(dir, name string) (string, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" || strings.ContainsAny(name, "@+ \t\"\\/") {
		return "", fmt.Errorf("mailer: hub: %q is not an account name (the part before the @)", name)
	}
	d := &hubDisk{dir: dir}
	return d.password(name, true)
}

// hubDisk is what the hub keeps in its directory.
type hubDisk struct {
	dir string
	seq atomic.Uint64

	mu    sync.Mutex
	locks map[string]*sync.Mutex         // per account: a delivery and an expunge do not cross
	files map[string]map[imap.UID]string // per account: INBOX UID → its file
	pws   map[string]string              // passwords read so far
}

func newHubDisk(dir string) (*hubDisk, error) {
	for _, sub := range []string{"passwords", "mail"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return nil, fmt.Errorf("mailer: hub: %w", err)
		}
	}
	return &hubDisk{dir: dir, locks: map[string]*sync.Mutex{}, files: map[string]map[imap.UID]string{}, pws: map[string]string{}}, nil
}

// lock is an account's lock.
func (d *hubDisk) lock(name string) *sync.Mutex {
	d.mu.Lock()
	defer d.mu.Unlock()
	l, ok := d.locks[name]
	if !ok {
		l = &sync.Mutex{}
		d.locks[name] = l
	}
	return l
}

// password reads (or, with create, makes) an account's password.
func (d *hubDisk) password(name string, create bool) (string, error) {
	if d.pws != nil {
		d.mu.Lock()
		pw, ok := d.pws[name]
		d.mu.Unlock()
		if ok {
			return pw, nil
		}
	}
	path := filepath.Join(d.dir, "passwords", accountFile(name))
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return "", fmt.Errorf("mailer: hub: %w", err)
		}
		var rnd [12]byte
		if _, err := rand.Read(rnd[:]); err != nil {
			return "", err
		}
		pw := hex.EncodeToString(rnd[:])
		f, ferr := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if ferr == nil {
			_, ferr = f.WriteString(pw + "\n")
			if serr := f.Sync(); ferr == nil {
				ferr = serr
			}
			if cerr := f.Close(); ferr == nil {
				ferr = cerr
			}
			if ferr != nil {
				os.Remove(path)
				return "", fmt.Errorf("mailer: hub: password of %s: %w", name, ferr)
			}
		} else if !errors.Is(ferr, fs.ErrExist) { // ErrExist: made meanwhile, read below
			return "", fmt.Errorf("mailer: hub: password of %s: %w", name, ferr)
		}
		b, err = os.ReadFile(path)
	}
	if err != nil {
		return "", fmt.Errorf("mailer: hub: password of %s: %w", name, err)
	}
	pw := strings.TrimSpace(string(b))
	if pw == "" {
		return "", fmt.Errorf("mailer: hub: the password file %s is empty", path)
	}
	if d.pws != nil {
		d.mu.Lock()
		d.pws[name] = pw
		d.mu.Unlock()
	}
	return pw, nil
}

// write stores a message for an account's INBOX, synced when sync is set,
// and returns its file.
func (d *hubDisk) write(name string, msg []byte, sync bool) (string, error) {
	box := filepath.Join(d.dir, "mail", accountFile(name))
	for _, sub := range []string{"tmp", "new"} {
		if err := os.MkdirAll(filepath.Join(box, sub), 0o700); err != nil {
			return "", err
		}
	}
	file := fmt.Sprintf("%020d.%06d", time.Now().UnixNano(), d.seq.Add(1)%1000000)
	tmp, final := filepath.Join(box, "tmp", file), filepath.Join(box, "new", file)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	_, err = f.Write(msg)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, final)
	}
	if err == nil && sync {
		err = syncDir(filepath.Join(box, "new"))
	}
	if err != nil {
		os.Remove(tmp)
		return "", err
	}
	return final, nil
}

// keep records which file holds an INBOX message.
func (d *hubDisk) keep(name string, uid imap.UID, file string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	m := d.files[name]
	if m == nil {
		m = map[imap.UID]string{}
		d.files[name] = m
	}
	m[uid] = file
}

// forget removes the files of INBOX messages that are gone.
func (d *hubDisk) forget(name string, uids []imap.UID) error {
	d.mu.Lock()
	var files []string
	for _, u := range uids {
		if f, ok := d.files[name][u]; ok {
			files = append(files, f)
			delete(d.files[name], u)
		}
	}
	d.mu.Unlock()
	var errs []error
	for _, f := range files {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// load reads every account's INBOX files back, oldest first, and removes
// deliveries that were never finished (never answered 250).
func (d *hubDisk) load(h *Hub) (int, error) {
	accounts, err := os.ReadDir(filepath.Join(d.dir, "mail"))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, a := range accounts {
		name, ok := accountOfFile(a.Name())
		if !ok || !a.IsDir() {
			continue
		}
		box := filepath.Join(d.dir, "mail", a.Name())
		if tmp, err := os.ReadDir(filepath.Join(box, "tmp")); err == nil {
			for _, t := range tmp {
				os.Remove(filepath.Join(box, "tmp", t.Name()))
			}
		}
		files, err := os.ReadDir(filepath.Join(box, "new"))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, err
		}
		sort.Slice(files, func(i, j int) bool { return files[i].Name() < files[j].Name() })
		for _, f := range files {
			path := filepath.Join(box, "new", f.Name())
			msg, err := os.ReadFile(path)
			if err != nil {
				return n, err
			}
			info, _ := f.Info()
			at := time.Now()
			if info != nil {
				at = info.ModTime()
			}
			data, err := h.User(name).Append("INBOX", literal{bytes.NewReader(msg), int64(len(msg))}, &imap.AppendOptions{Time: at})
			if err != nil {
				return n, fmt.Errorf("mailer: hub: %s: %w", path, err)
			}
			d.keep(name, data.UID, path)
			n++
		}
	}
	return n, nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
