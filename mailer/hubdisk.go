package mailer

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
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
//
// A directory removed while the hub runs is made again at the next
// delivery (and logged: the INBOX mail whose files went with it is in
// memory only until it leaves the INBOX), and a password file at the next
// AUTH, with the password the hub knows, unless `bottlepost hub-password`
// made a new one first: the file is the password. When the directory
// cannot be made (the disk full or read-only, a file in its way), the SMTP
// server answers 451, so the sender keeps the mail and tries again, and the
// error is logged.

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
	log *slog.Logger
	seq atomic.Uint64

	mu    sync.Mutex
	files map[string]map[imap.UID]string // per account: INBOX UID → its file
	pws   map[string]string              // passwords read so far (HubPassword's hubDisk has none)
}

func newHubDisk(dir string, log *slog.Logger) (*hubDisk, error) {
	for _, sub := range []string{"passwords", "mail"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
			return nil, fmt.Errorf("mailer: hub: %w", err)
		}
	}
	return &hubDisk{dir: dir, log: log, files: map[string]map[imap.UID]string{}, pws: map[string]string{}}, nil
}

// password reads (or, with create, makes) an account's password. The file
// is the password: it is read every time, so one made or changed while
// the hub runs counts at once. A password the hub read before whose file
// is gone (its directory removed) is written back, so that the account
// keeps it rather than losing it to the next hub-password.
func (d *hubDisk) password(name string, create bool) (string, error) {
	path := filepath.Join(d.dir, "passwords", accountFile(name))
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		d.mu.Lock()
		known, ok := d.pws[name]
		d.mu.Unlock()
		if ok {
			create = true
			d.log.Warn("mail hub: a password file was removed; written again", "account", name, "file", path)
		}
		if create {
			b, err = d.makePassword(path, known)
		}
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

// makePassword writes an account's password file (pw, or a random one when
// pw is empty) unless one was made meanwhile, and returns the file's text.
func (d *hubDisk) makePassword(path, pw string) ([]byte, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	if pw == "" {
		var rnd [12]byte
		if _, err := rand.Read(rnd[:]); err != nil {
			return nil, err
		}
		pw = hex.EncodeToString(rnd[:])
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) { // made meanwhile (hub-password): that one counts
		return os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	_, err = f.WriteString(pw + "\n")
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	return os.ReadFile(path)
}

// write stores a message for an account's INBOX, synced when sync is set,
// and returns its file. The account's directories are made when missing:
// on its first mail, or again when they were removed while the hub ran.
func (d *hubDisk) write(name string, msg []byte, sync bool) (string, error) {
	box := filepath.Join(d.dir, "mail", accountFile(name))
	if _, err := os.Stat(filepath.Join(box, "new")); errors.Is(err, fs.ErrNotExist) {
		d.mu.Lock()
		lost := len(d.files[name])
		d.mu.Unlock()
		if lost > 0 {
			d.log.Warn("mail hub: an account's mail directory was removed while the hub ran; made again. "+
				"The mail its INBOX held is in memory only until it leaves the INBOX: a crash now loses it",
				"account", name, "dir", box, "messages", lost)
		}
	}
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
	if len(d.files[name]) == 0 {
		delete(d.files, name) // a map keeps its buckets when emptied: a flood's would stay
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
