package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Bucket names. docs/store.md describes each bucket's keys and values.
var (
	bucketMeta      = []byte("meta")      // schema version, key check
	bucketGames     = []byte("games")     // game id → game (active and finished, not archived)
	bucketArchive   = []byte("archive")   // game id → game (archived)
	bucketLog       = []byte("log")       // game id ‖ record index → record ‖ chain hash
	bucketPlayers   = []byte("players")   // player id → player
	bucketAddresses = []byte("addresses") // lower-cased address → player id
	bucketTokens    = []byte("tokens")    // HMAC of a reply token → (game, player, side) (schema 4)
	bucketOutbox    = []byte("outbox")    // mail id → mail waiting for the mail server
	bucketProcessed = []byte("processed") // SHA-256(Message-ID)[:16] → when processed
	bucketDeadlines = []byte("deadlines") // UTC instant ‖ game id ‖ kind → empty
	bucketSettings  = []byte("settings")  // name → the game service's own small values
	bucketMatches   = []byte("matches")   // len ‖ match key ‖ game id → empty (schema 2)
	bucketPlayerDue = []byte("playerdue") // UTC instant ‖ player id → empty (schema 2)
	// game id ‖ side → a side's pending conditional moves, sealed (schema 3)
	bucketConditionals = []byte("conditionals")
	// UTC day ‖ keyed hash of an address → welcomes counted (schema 5)
	bucketWelcomes = []byte("welcomes")

	allBuckets = [][]byte{bucketMeta, bucketGames, bucketArchive, bucketLog, bucketPlayers,
		bucketAddresses, bucketTokens, bucketOutbox, bucketProcessed, bucketDeadlines, bucketSettings,
		bucketMatches, bucketPlayerDue, bucketConditionals, bucketWelcomes}

	metaSchema   = []byte("schema")
	metaKeyCheck = []byte("keycheck")
)

// DefaultLockTimeout is how long Open waits for another process to release the database.
const DefaultLockTimeout = 2 * time.Second

// Options configure Open. The zero value is usable.
type Options struct {
	// KeyFile is the master key's path; default: the database path with ".key" appended.
	// It is created (mode 0600) when neither it nor the database holds a key yet.
	KeyFile string
	// LockTimeout is how long to wait for another process to release the database before
	// failing with ErrLocked; default DefaultLockTimeout.
	LockTimeout time.Duration
	// ReadOnly opens the database for reading only, sharing it with other readers. Writing
	// transactions then fail with ErrReadOnly.
	ReadOnly bool
	// Logger receives what the store does on its own (opening, creating the key, migrating,
	// backup, compaction); default: discard.
	Logger *slog.Logger
}

// Store is an open database. Its methods are safe for concurrent use.
type Store struct {
	db       *bolt.DB
	path     string
	keyPath  string
	vault    *vault
	log      *slog.Logger
	readOnly bool
	damage   []error   // found by Open in a database opened read-only; Verify reports it
	group    committer // Batch's group commit
	counts   counters  // what Stats reports
}

// Open opens (or creates) the database at path with its master key file.
//
// It fails with ErrLocked when another process holds the database for longer than the lock
// timeout, ErrReadOnly when the database or its directory cannot be written (a file without
// the owner's write permission counts as read-only, even for root; use Options.ReadOnly to
// read it), ErrKey when the key file is wrong, ErrSchema when the database was written by a
// newer program or is not a bottlepost database, ErrCorrupt when bbolt cannot read it or its
// key check is damaged (a byte or so of it, where another key file's would differ wholly: a
// store opened read-only is opened all the same, and Verify reports the damage), and
// ErrDiskFull when there is no room to create it. A new database is built in a temporary
// file and linked into place, so a failed or interrupted first Open leaves no database file
// (a new key file may stay; the next Open uses it).
func Open(path string, opts Options) (*Store, error) {
	s := &Store{path: path, keyPath: opts.KeyFile, log: opts.Logger, readOnly: opts.ReadOnly}
	if s.keyPath == "" {
		s.keyPath = path + ".key"
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	timeout := opts.LockTimeout
	if timeout <= 0 {
		timeout = DefaultLockTimeout
	}

	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && opts.ReadOnly:
		return nil, fmt.Errorf("store: database %s does not exist: %w", path, ErrNotFound)
	case errors.Is(err, fs.ErrNotExist):
		if err := s.create(); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, fileError("open database", path, err)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("store: database %s is not a regular file: %w", path, ErrInvalid)
	case !opts.ReadOnly && fi.Mode().Perm()&0o200 == 0:
		return nil, fmt.Errorf("store: database %s is read-only (mode %04o); make it writable or open it read-only: %w",
			path, fi.Mode().Perm(), ErrReadOnly)
	}

	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout, ReadOnly: opts.ReadOnly})
	if err != nil {
		if errors.Is(err, berrors.ErrTimeout) {
			return nil, fmt.Errorf("store: database %s is in use by another process (waited %v): %w", path, timeout, ErrLocked)
		}
		if errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrChecksum) || errors.Is(err, berrors.ErrVersionMismatch) {
			return nil, fmt.Errorf("store: database %s cannot be read (%v): %w", path, err, ErrCorrupt)
		}
		return nil, fileError("open database", path, err)
	}
	s.db = db
	if err := s.checkSafely(); err != nil {
		db.Close()
		return nil, err
	}
	s.log.Info("store opened", "path", path, "schema", schemaVersion, "read_only", opts.ReadOnly)
	return s, nil
}

// create builds a new database in a temporary file beside path and links it into place, so
// path never holds a half-made database, whether the process dies or the disk fills. The
// key file is created first if it does not exist.
func (s *Store) create() error {
	v, err := s.key(nil)
	if err != nil {
		return err
	}
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return fmt.Errorf("store: create %s: %w", s.path, err)
	}
	tmp := filepath.Join(filepath.Dir(s.path), fmt.Sprintf(".%s.new-%x", filepath.Base(s.path), rnd))
	defer os.Remove(tmp)
	db, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return fileError("create database", s.path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error { return setup(tx, v, schemaVersion, s.log) })
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fileError("create database", s.path, err)
	}
	if err := os.Link(tmp, s.path); err != nil && !errors.Is(err, fs.ErrExist) { // ErrExist: another process was first
		return fileError("create database", s.path, err)
	}
	if err := syncDir(filepath.Dir(s.path)); err != nil {
		return fileError("create database", s.path, err)
	}
	s.log.Info("store created a database", "path", s.path, "schema", schemaVersion)
	return nil
}

// setup brings a database from schema version from to the current one: it runs the
// migrations, makes every bucket and records the schema version and the key check.
func setup(tx *bolt.Tx, v *vault, from uint64, log *slog.Logger) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return fmt.Errorf("store: bucket %s: %w", bucketMeta, err)
	}
	if err := migrateTo(tx, v, from, schemaVersion, migrations, log); err != nil {
		return err
	}
	for _, b := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return fmt.Errorf("store: bucket %s: %w", b, err)
		}
	}
	if err := meta.Put(metaSchema, binary.AppendUvarint(nil, schemaVersion)); err != nil {
		return fmt.Errorf("store: schema version: %w", err)
	}
	if err := meta.Put(metaKeyCheck, v.keyCheck()); err != nil {
		return fmt.Errorf("store: key check: %w", err)
	}
	return nil
}

// key loads the master key, or creates it when the key file does not exist and the
// database has no key check yet. It verifies the key against check when there is one.
func (s *Store) key(check []byte) (*vault, error) {
	v, err := loadKey(s.keyPath)
	switch {
	case errors.Is(err, fs.ErrNotExist) && len(check) > 0:
		return nil, fmt.Errorf("store: key file %s is missing, and database %s was sealed with a key: restore the key file from its backup: %w",
			s.keyPath, s.path, ErrKey)
	case errors.Is(err, fs.ErrNotExist) && s.readOnly:
		return nil, fmt.Errorf("store: key file %s is missing: %w", s.keyPath, ErrKey)
	case errors.Is(err, fs.ErrNotExist):
		v, err = createKey(s.keyPath)
		if errors.Is(err, ErrExists) { // another process was first
			v, err = loadKey(s.keyPath)
		}
		if err != nil {
			return nil, err
		}
		s.log.Info("store created a master key", "key_file", s.keyPath)
	case err != nil:
		return nil, err
	}
	if len(check) > 0 && string(check) != string(v.keyCheck()) {
		if n, want := keyCheckDiffers(check, v.keyCheck()), len(v.keyCheck()); n <= keyCheckDamage {
			// The key's check, bar a byte or so: another key's would differ in
			// nearly every byte. The key file is right; the database is damaged.
			err := fmt.Errorf("store: database %s is damaged: its key check differs from the one key file %s gives in %d of its %d bytes, where another key's would differ in nearly all: the key file is right, the database's key check was damaged; run bottlepost check-store, and restore the database from a backup: %w",
				s.path, s.keyPath, n, want, ErrCorrupt)
			if !s.readOnly {
				return nil, err
			}
			s.damage = append(s.damage, err) // read to be checked: Verify reports it
			return v, nil
		}
		return nil, fmt.Errorf("store: key file %s does not belong to database %s: %w", s.keyPath, s.path, ErrKey)
	}
	return v, nil
}

// keyCheckDamage is how many bytes of a stored key check may differ from
// the key's for the difference to be damage of the stored check rather
// than another key: another key's check matches each of the 16 bytes with
// a chance of 1 in 256, so 12 or more matching bytes (4 or fewer
// differing) happen by chance about once in 2^85 tries.
const keyCheckDamage = 4

// keyCheckDiffers counts the bytes in which two key checks differ, a byte
// missing or added counting as one.
func keyCheckDiffers(a, b []byte) int {
	n := max(len(a), len(b)) - min(len(a), len(b))
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

// checkSafely is check with a bbolt panic on a damaged page recovered.
func (s *Store) checkSafely() (err error) {
	var none *Tx
	defer s.recoverPanic(&none, &err)
	return s.check()
}

// check verifies the schema and the key of an open database, and upgrades it if needed.
func (s *Store) check() error {
	var (
		schema  uint64
		check   []byte
		fresh   bool
		missing []string
	)
	err := s.db.View(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta == nil {
			fresh = true // an empty file, set up in place
			return tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
				return fmt.Errorf("store: %s is not a bottlepost database (it has a bucket %q but no schema): %w", s.path, name, ErrSchema)
			})
		}
		v := meta.Get(metaSchema)
		d := dec{b: v}
		schema = d.uvarint()
		if err := d.done(); err != nil || v == nil {
			return fmt.Errorf("store: database %s has an unreadable schema version: %w", s.path, ErrCorrupt)
		}
		check = bytes.Clone(meta.Get(metaKeyCheck))
		for _, b := range allBuckets {
			if tx.Bucket(b) == nil {
				missing = append(missing, string(b))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	switch {
	case schema > schemaVersion:
		return fmt.Errorf("store: database %s has schema version %d, newer than this program's %d: %w", s.path, schema, schemaVersion, ErrSchema)
	case fresh && s.readOnly:
		return fmt.Errorf("store: database %s is empty (never opened for writing): %w", s.path, ErrSchema)
	case !fresh && len(check) == 0:
		return fmt.Errorf("store: database %s has no key check: %w", s.path, ErrCorrupt)
	}
	v, err := s.key(check)
	if err != nil {
		return err
	}
	s.vault = v
	if fresh {
		schema = schemaVersion
	} else if schema == schemaVersion && len(missing) == 0 {
		return nil
	}
	if s.readOnly {
		return fmt.Errorf("store: database %s needs an upgrade from schema %d to %d (missing: %s); open it writable once: %w",
			s.path, schema, schemaVersion, strings.Join(missing, ", "), ErrSchema)
	}
	return s.mapCommit(s.db.Update(func(tx *bolt.Tx) error {
		if err := setup(tx, v, schema, s.log); err != nil {
			return fnError{err}
		}
		return nil
	}))
}

// Close closes the database. Transactions still running finish first.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close %s: %w", s.path, err)
	}
	return nil
}

// Path returns the database's path.
func (s *Store) Path() string { return s.path }

// View runs fn in a read-only transaction. Values read are copies, valid after fn returns.
// A panic (bbolt's, on a damaged page, or fn's) becomes an error matching ErrCorrupt that
// names the game the transaction was on (a *GameError).
func (s *Store) View(fn func(*Tx) error) (err error) {
	var tx *Tx
	defer s.recoverPanic(&tx, &err)
	return s.db.View(func(btx *bolt.Tx) error {
		tx = &Tx{s: s, tx: btx}
		return fn(tx)
	})
}

// recoverPanic turns a panic under a transaction into an error: bbolt panics on a damaged
// page instead of returning one, and a process that dies of it stops every game. bbolt has
// rolled the transaction back (its own deferred rollback ran first), so the store stays
// usable for everything the damage does not touch.
func (s *Store) recoverPanic(tx **Tx, err *error) {
	r := recover()
	if r == nil {
		return
	}
	cause := fmt.Errorf("the database %s is damaged here (bbolt: %v); run bottlepost check-store: %w", s.path, r, ErrCorrupt)
	var game uint64
	if *tx != nil {
		game = (*tx).game
	}
	*err = gameErr(game, cause)
	s.log.Error("store: a transaction panicked; the database is damaged", "err", *err)
}

// Update runs fn in a read-write transaction and commits it if fn returns nil; everything
// fn wrote is durable (fsynced) when Update returns nil, and nothing of it when Update fails.
// A commit that fails because the disk is full gives ErrDiskFull, one on a read-only file
// or file system ErrReadOnly.
//
// The jobs fn deferred (Tx.Defer) run after fn, before the commit.
//
// A panic is recovered as in View.
func (s *Store) Update(fn func(*Tx) error) (err error) {
	var tx *Tx
	defer s.recoverPanic(&tx, &err)
	err = s.db.Update(func(btx *bolt.Tx) error {
		tx = &Tx{s: s, tx: btx}
		err := fn(tx)
		if err == nil {
			_, err = tx.runDeferred()
		}
		if err != nil {
			return fnError{err}
		}
		return nil
	})
	return s.mapCommit(err)
}

// Batch is Update for many concurrent callers: their functions share one transaction and one
// fsync (group commit). A call that finds no commit under way is committed at once, alone;
// calls arriving while a commit runs wait for it and then go in together in the next, up to
// maxGroup at a time. So a lone caller pays what Update costs, and under load one fsync
// serves many. fn may run more than once (when another function in the group fails, the
// group is rolled back and run again without it, and the failing one runs alone), so fn must
// set its results afresh on every run and must have no effects outside the transaction. A
// panic in fn becomes its error. Batch returns once fn's writes are durable. The jobs the
// functions defer (Tx.Defer) run once all of the group's functions have run, side by side on
// the machine's cores: the write transaction stays open meanwhile, but for as long as the
// longest share of them takes rather than their sum; a failure there fails the function
// that deferred it, as above.
//
// Why not bbolt's DB.Batch: it gathers calls for MaxBatchDelay before committing, so a
// lone call waits that long, and with a small delay its groups are small under load.
// Measured with
//
//	go test ./store -run '^$' -bench 'CommitMoveBatched$|CommitMoveBoltBatch|Lone' -benchtime 2s -count 3
//
// (2026-11-26, the shared 2-core machine under load): with 64 concurrent callers Batch
// committed 1,456–1,962 moves/s, DB.Batch with a 1 ms delay 524–1,262 and with its default
// 10 ms 1,590–1,977, at the price of up to 10 ms on every lone commit; a lone move took
// 3.6–4.3 ms through Batch and 4.0–5.6 ms through DB.Batch at 1 ms. DB.Batch also commits
// on a timer goroutine, where a bbolt panic on a damaged page would end the process; here
// it becomes the callers' error. The invariant (every call committed once, alone when
// another in its group fails) is committer's, tested by TestBatchGroupCommit.
func (s *Store) Batch(fn func(*Tx) error) error {
	c := &batchCall{fn: fn, done: make(chan struct{})}
	g := &s.group
	g.mu.Lock()
	g.queue = append(g.queue, c)
	if !g.leading {
		g.leading = true
		go s.lead()
	}
	g.mu.Unlock()
	<-c.done
	return c.err
}

// maxGroup is the most calls of Batch committed in one transaction.
const maxGroup = 1000

// committer is the state of Batch's group commit.
type committer struct {
	mu      sync.Mutex
	queue   []*batchCall
	leading bool // a goroutine is committing the queue
	commits int  // transactions committed or tried (tests read it under mu)
}

// batchCall is one waiting call of Batch.
type batchCall struct {
	fn   func(*Tx) error
	err  error
	done chan struct{}
}

// lead commits the queued calls, group after group, until none is left.
func (s *Store) lead() {
	g := &s.group
	for {
		g.mu.Lock()
		n := min(len(g.queue), maxGroup)
		if n == 0 {
			g.leading = false
			g.mu.Unlock()
			return
		}
		calls := g.queue[:n:n]
		g.queue = append([]*batchCall(nil), g.queue[n:]...)
		g.mu.Unlock()
		s.commitGroup(calls)
	}
}

// commitGroup runs calls in one transaction. When one fails, the transaction is rolled
// back, that call runs alone (its result is then its own), and the others are tried again
// together.
func (s *Store) commitGroup(calls []*batchCall) {
	for len(calls) > 0 {
		failed := -1
		s.group.mu.Lock()
		s.group.commits++
		s.group.mu.Unlock()
		var panicked error // bbolt panicked outside the functions (in the commit, say)
		err := func() (err error) {
			var tx *Tx
			defer s.recoverPanic(&tx, &panicked)
			return s.db.Update(func(btx *bolt.Tx) error {
				tx = &Tx{s: s, tx: btx}
				for i, c := range calls {
					tx.call = i
					if err := safeCall(c.fn, tx); err != nil {
						failed = i
						return fnError{err}
					}
				}
				// The group's deferred jobs, side by side (Tx.Defer).
				if i, err := tx.runDeferred(); err != nil {
					failed = i
					return fnError{err}
				}
				return nil
			})
		}()
		if panicked != nil {
			// Which call's data is damaged is not known: each runs alone (Update
			// recovers a panic again and names its game).
			for _, c := range calls {
				c.err = s.Update(func(tx *Tx) error { return safeCall(c.fn, tx) })
				close(c.done)
			}
			return
		}
		if failed < 0 {
			err = s.mapCommit(err)
			for _, c := range calls {
				c.err = err
				close(c.done)
			}
			return
		}
		solo := calls[failed]
		solo.err = s.Update(func(tx *Tx) error { return safeCall(solo.fn, tx) })
		close(solo.done)
		calls = append(calls[:failed:failed], calls[failed+1:]...)
	}
}

// safeCall runs fn, turning a panic into an error so that one caller's bug does not take
// down the goroutine committing everybody's work.
func safeCall(fn func(*Tx) error, tx *Tx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			cause := fmt.Errorf("the transaction panicked (%v); if it was bbolt, the database %s is damaged here: run bottlepost check-store: %w", r, tx.s.path, ErrCorrupt)
			err = gameErr(tx.game, cause)
			tx.s.log.Error("store: a transaction panicked", "err", err)
		}
	}()
	return fn(tx)
}

// fnError is an error a transaction's function returned (its deferred jobs' included), as
// bbolt hands it back: mapCommit tells it from a failure of bbolt's own by its type, not by
// its words, and passes on the error inside as it is.
type fnError struct{ err error }

func (e fnError) Error() string { return e.err.Error() }
func (e fnError) Unwrap() error { return e.err }

// mapCommit turns a failure of bbolt (its commit, or beginning a transaction) into the
// store's errors: a full disk, a read-only file. An error of the transaction's function
// (an fnError) passes unchanged.
func (s *Store) mapCommit(err error) error {
	if err == nil {
		return nil
	}
	if fe, ok := err.(fnError); ok {
		return fe.err
	}
	if errors.Is(err, berrors.ErrDatabaseReadOnly) || errors.Is(err, berrors.ErrTxNotWritable) {
		return fmt.Errorf("store: database %s is open read-only: %w", s.path, ErrReadOnly)
	}
	return fileError("commit to", s.path, err)
}

// fileError classifies an error of a file operation: a full disk or quota gives
// ErrDiskFull, a read-only file system or a refused permission ErrReadOnly.
func fileError(op, path string, err error) error {
	msg := err.Error()
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT),
		strings.Contains(msg, "no space left on device"), strings.Contains(msg, "disk quota exceeded"):
		// bbolt formats some errors with %s, so the message is the only trace left.
		return fmt.Errorf("store: %s %s: the disk is full; nothing was written (%v): %w", op, path, err, ErrDiskFull)
	case errors.Is(err, syscall.EROFS), errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM),
		strings.Contains(msg, "read-only file system"):
		return fmt.Errorf("store: %s %s: cannot write (%v): %w", op, path, err, ErrReadOnly)
	}
	return fmt.Errorf("store: %s %s: %w", op, path, err)
}

// Backup writes a consistent copy of the database to w while the store stays in use (a
// read transaction pins the copied state). It returns the number of bytes written. The
// master key is not in the copy: back the key file up separately, and keep it apart.
func (s *Store) Backup(w io.Writer) (n int64, err error) {
	var none *Tx
	defer s.recoverPanic(&none, &err)
	err = s.db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("store: backup of %s: %w", s.path, err)
	}
	s.log.Info("store backed up", "path", s.path, "bytes", n)
	return n, nil
}

// BackupFile writes a consistent copy of the database (Backup) to the file dst, which must
// not exist (ErrExists). The copy is written to a temporary file beside dst, synced, and
// linked to dst (a link, unlike a rename, never replaces a file that appeared meanwhile), so
// dst is either a whole backup or absent: on a failure, a full disk (ErrDiskFull) say, the
// temporary file is removed. A process killed while it copies leaves the temporary file,
// which the next copy to dst removes (RemoveStaleCopies). The key is not in the copy.
func (s *Store) BackupFile(dst string) error {
	return writeNew(dst, "backup", func(tmp string) error {
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return err
		}
		// Held while the copy is written: a file nobody holds is a dead writer's
		// (RemoveStaleCopies). bbolt holds the compacted copy's the same way.
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			return err
		}
		if _, err := s.Backup(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	})
}

// Compact writes a compacted copy of the database to the file dst, which must not exist:
// the pages freed by finished transactions are left out. The store stays in use; writes
// made after the copy started are not in it. To shrink the live file, stop the service and
// replace the database with the copy (the key file stays the same).
func (s *Store) Compact(dst string) error {
	err := writeNew(dst, "compact", func(tmp string) error {
		out, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: time.Second})
		if err != nil {
			return err
		}
		if err := bolt.Compact(out, s.db, 64<<20); err != nil {
			out.Close()
			return err
		}
		return out.Close() // every commit of the copy was synced
	})
	if err == nil {
		s.log.Info("store compacted", "path", s.path, "to", dst)
	}
	return err
}

// writeNew creates dst through a temporary file in its directory: write (and sync), link
// it into place, sync the directory, remove the temporary name. On failure nothing is left.
//
// A process killed while it writes leaves the temporary file behind; the next copy to the
// same destination removes it (RemoveStaleCopies), and so does the command that asked a
// service for the copy when the service stops before answering.
func writeNew(dst, op string, write func(tmp string) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("store: %s to %s: the database is damaged (bbolt: %v); run bottlepost check-store: %w", op, dst, r, ErrCorrupt)
		}
	}()
	if _, err := RemoveStaleCopies(dst); err != nil {
		return fmt.Errorf("store: %s: %w", op, err)
	}
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("store: %s: %s already exists: %w", op, dst, ErrExists)
	}
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return fmt.Errorf("store: %s: %w", op, err)
	}
	dir := filepath.Dir(dst)
	tmp := filepath.Join(dir, fmt.Sprintf(".%s.tmp-%x", filepath.Base(dst), rnd))
	defer os.Remove(tmp)
	if err := write(tmp); err != nil {
		return fileError(op+" to", dst, err)
	}
	if err := os.Link(tmp, dst); err != nil { // unlike rename, never replaces a file
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("store: %s: %s already exists: %w", op, dst, ErrExists)
		}
		return fileError(op+" to", dst, err)
	}
	if err := syncDir(dir); err != nil {
		return fileError(op+" to", dst, err)
	}
	return nil
}

// Problems splits an error of Verify into its problems, one per line of a report (nil for
// none).
func Problems(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// CheckPages runs bbolt's consistency check of the file's pages (no game is decoded, so it
// is quick), and returns the problems found, joined (ErrCorrupt). The daemon runs it at
// start-up, so that a damaged file is noticed before a transaction stumbles on it. Writes
// wait while it runs (see pageCheck).
func (s *Store) CheckPages() (err error) {
	var none *Tx
	defer s.recoverPanic(&none, &err)
	return errors.Join(s.pageCheck()...)
}

// pageCheck runs bbolt's consistency check of the file's pages. bbolt's check reads the
// free-page list, which a writing transaction changes: it is safe only in a writable
// transaction (which keeps other writers out meanwhile; it is rolled back, so nothing is
// written) or with no writer at all (a store opened read-only).
func (s *Store) pageCheck() []error {
	btx, err := s.db.Begin(!s.readOnly)
	if err != nil {
		return []error{s.mapCommit(err)}
	}
	defer btx.Rollback()
	var errs []error
	for e := range btx.Check() {
		errs = append(errs, fmt.Errorf("store: %s: %v: %w", s.path, e, ErrCorrupt))
	}
	return errs
}

// verifyGameSafely is VerifyGame with a bbolt panic on a damaged page recovered into a
// problem of that game.
func (tx *Tx) verifyGameSafely(id uint64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &GameError{Game: id, Err: fmt.Errorf("its pages are damaged (bbolt: %v): %w", r, ErrCorrupt)}
		}
	}()
	return tx.VerifyGame(id)
}

// dueGame names the game of a deadline index key; dueText describes the entry.
func dueGame(k []byte) string {
	if d, err := decodeDeadlineKey(k); err == nil {
		return fmt.Sprintf("game %d", d.Game)
	}
	return fmt.Sprintf("deadline index key %x", k)
}

func dueText(k []byte) string {
	if d, err := decodeDeadlineKey(k); err == nil {
		return fmt.Sprintf("a deadline (kind %d) at %s", d.Kind, d.At.UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("an unreadable key %x", k)
}

// RemoveStaleCopies removes the temporary files that backups and compactions to dst left
// when their process died: those in dst's directory named for dst whose writer no longer
// holds them. It returns the paths removed.
func RemoveStaleCopies(dst string) ([]string, error) {
	dir, base := filepath.Dir(dst), filepath.Base(dst)
	names, err := filepath.Glob(filepath.Join(dir, "."+globEscape(base)+".tmp-*"))
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, tmp := range names {
		f, err := os.OpenFile(tmp, os.O_RDONLY, 0)
		if err != nil {
			continue // gone already, or not ours to read
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			f.Close() // a living writer holds it
			continue
		}
		err = os.Remove(tmp)
		f.Close()
		if err != nil {
			return removed, fmt.Errorf("remove the unfinished copy %s: %w", tmp, err)
		}
		removed = append(removed, tmp)
	}
	return removed, nil
}

// globEscape quotes the pattern characters of a file name.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Verify checks the whole database: bbolt's page consistency check, every game's record,
// sealed parts, commitments and hash chain (see Tx.VerifyGame) and its seats' players, and
// that the deadline index holds exactly the active games' deadlines, the match index exactly
// their match keys and the player deadline index exactly the players' deadlines, and that
// every side's conditional moves belong to a game in play and open; and it decodes every
// other record (players and the address index, reply tokens, outbox mails, which must open,
// processed message ids, welcomes, log entries, which must belong to a game). The values
// the store keeps for the game service unread (a game's and a player's service data and
// state in the clear, the settings) are the game service's to check (game.Check).
// It returns the problems found, joined;
// ErrCorrupt or ErrTampered match them.
//
// A bbolt panic on a damaged page is reported as a problem of the game being checked (a
// *GameError), and the other games are still checked; one outside any game ends the check
// with an error matching ErrCorrupt.
func (s *Store) Verify(ctx context.Context) (err error) {
	var none *Tx
	defer s.recoverPanic(&none, &err)
	pages := s.pageCheck()
	return s.db.View(func(btx *bolt.Tx) error {
		errs := append(slices.Clone(s.damage), pages...)
		tx := &Tx{s: s, tx: btx}
		deadlines := map[string]bool{} // index keys the games call for
		matches := map[string]bool{}
		for _, b := range [][]byte{bucketGames, bucketArchive} {
			err := btx.Bucket(b).ForEach(func(k, _ []byte) error {
				if err := ctx.Err(); err != nil {
					return err
				}
				if len(k) != 8 {
					errs = append(errs, fmt.Errorf("store: bucket %s has a key %x that is not a game id: %w", b, k, ErrCorrupt))
					return nil
				}
				id := beUint64(k)
				if err := tx.verifyGameSafely(id); err != nil {
					errs = append(errs, err)
				}
				g, err := tx.rawGame(id) // a damaged log leaves the game's indexes to check
				if err != nil {
					return nil
				}
				errs = append(errs, tx.verifySeats(g)...)
				for _, dl := range g.Deadlines {
					deadlines[string(deadlineKey(id, dl))] = true
				}
				if g.Match != "" {
					matches[string(matchKey(g.Match, id))] = true
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		err := btx.Bucket(bucketDeadlines).ForEach(func(k, _ []byte) error {
			if !deadlines[string(k)] {
				errs = append(errs, fmt.Errorf("store: %s: the deadline index holds %s, which the game does not have: %w", dueGame(k), dueText(k), ErrCorrupt))
			}
			delete(deadlines, string(k))
			return nil
		})
		if err != nil {
			return err
		}
		for k := range deadlines {
			errs = append(errs, fmt.Errorf("store: %s: the deadline index lacks %s: %w", dueGame([]byte(k)), dueText([]byte(k)), ErrCorrupt))
		}
		errs = append(errs, tx.verifyIndexes(matches)...)
		errs = append(errs, tx.verifyConditionals()...)
		errs = append(errs, tx.verifyRecords()...)
		return errors.Join(errs...)
	})
}
