package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/bottlepost/bottlepost/daemon"
	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/store"
)

// defaultDataDir is where the service keeps its database when not told otherwise.
const defaultDataDir = "bottlepost-data"

// storeFlags locate the database and its key.
type storeFlags struct{ data, db, key string }

func (s *storeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.data, "data", defaultDataDir, "the data directory")
	fs.StringVar(&s.db, "db", "", "the database file (default DATA/bottlepost.db)")
	fs.StringVar(&s.key, "key", "", "the master key file (default DATA/bottlepost.key)")
}

func (s *storeFlags) open(readOnly bool) (*store.Store, error) {
	db := s.db
	if db == "" {
		db = filepath.Join(s.data, "bottlepost.db")
	}
	key := s.key
	if key == "" {
		key = filepath.Join(s.data, "bottlepost.key")
	}
	if _, err := os.Stat(db); err != nil {
		return nil, fmt.Errorf("no database at %s (use --data or --db): %w", db, err)
	}
	return store.Open(db, store.Options{KeyFile: key, ReadOnly: readOnly})
}

func init() {
	commands["export"] = command{"export GAME [--data DIR] [-o FILE]  write a finished game as PGN with its proofs", runExport}
	commands["verify"] = command{"verify FILE [RECORDS:HEAD...]  check an exported game: chain, commitments, legality", runVerify}
	commands["compact"] = command{"compact FILE [--data DIR]  write a compacted copy of the database (swap it in while stopped)", runCompact}
	commands["backup"] = command{"backup FILE [--data DIR]  copy the database while the service runs", runBackup}
}

func runExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf storeFlags
	sf.register(fs)
	out := fs.String("o", "", "write to this file instead of standard output")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "usage: bottlepost export GAME [--data DIR] [-o FILE]")
		return 2
	}
	id, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(pos[0]), "bp-"), 10, 64)
	if err != nil || id == 0 {
		fmt.Fprintf(stderr, "bottlepost: export: %q is not a game number\n", pos[0])
		return 2
	}
	if code, done := exportViaDaemon(sf.data, id, *out, stdout, stderr); done {
		return code
	}
	st, err := sf.open(true)
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost: export:", err)
		return 1
	}
	defer st.Close()
	var x *store.Export
	if err := st.View(func(tx *store.Tx) error {
		var err error
		x, err = tx.Export(id)
		return err
	}); err != nil {
		fmt.Fprintln(stderr, "bottlepost: export:", err)
		return 1
	}
	if *out == "" {
		if err := game.Export(stdout, x); err != nil {
			fmt.Fprintln(stderr, "bottlepost: export:", err)
			return 1
		}
		return 0
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost: export:", err)
		return 1
	}
	err = game.Export(f, x)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost: export:", err)
		return 1
	}
	return 0
}

// exportViaDaemon asks a running service (which holds the database) to
// write the export; done is false when no service runs on dataDir.
func exportViaDaemon(dataDir string, id uint64, out string, stdout, stderr io.Writer) (code int, done bool) {
	target := out
	if target == "" {
		dir, err := os.MkdirTemp("", "bottlepost-export-")
		if err != nil {
			fmt.Fprintln(stderr, "bottlepost: export:", err)
			return 1, true
		}
		defer os.RemoveAll(dir)
		target = filepath.Join(dir, "game.pgn")
	}
	abs, err := filepath.Abs(target)
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost: export:", err)
		return 1, true
	}
	if _, err := daemon.Request(dataDir, fmt.Sprintf("export %d %s", id, abs)); errors.Is(err, daemon.ErrNotRunning) {
		return 0, false
	} else if err != nil {
		fmt.Fprintln(stderr, "bottlepost: export:", err)
		return 1, true
	}
	if out == "" {
		data, err := os.ReadFile(abs)
		if err != nil {
			fmt.Fprintln(stderr, "bottlepost: export:", err)
			return 1, true
		}
		stdout.Write(data)
	}
	return 0, true
}

func runVerify(args []string, stdout, stderr io.Writer) int {
	if len(args) < 1 {
		fmt.Fprintln(stderr, "usage: bottlepost verify FILE [RECORDS:HEAD...]")
		return 2
	}
	var receipts []store.Receipt
	for _, a := range args[1:] {
		n, head, ok := strings.Cut(a, ":")
		recs, err := strconv.ParseUint(n, 10, 32)
		d, derr := store.ParseDigest(head)
		if !ok || err != nil || derr != nil {
			fmt.Fprintf(stderr, "bottlepost: verify: %q is not a receipt (RECORDS:HEAD, as quoted in the mails)\n", a)
			return 2
		}
		receipts = append(receipts, store.Receipt{Records: uint32(recs), Head: d})
	}
	f, err := os.Open(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost: verify:", err)
		return 2
	}
	defer f.Close()
	res, err := game.Verify(f, receipts...)
	if res != nil {
		for _, c := range res.Checks {
			fmt.Fprintln(stdout, "ok:", c)
		}
	}
	if err != nil {
		fmt.Fprintln(stdout, "FAILED:", strings.TrimPrefix(err.Error(), "game: verify: "))
		return 1
	}
	fmt.Fprintf(stdout, "verified: game %d (%s), %d moves, %d secret, result %s\n", res.Game, res.Variant, res.Moves, res.Secret, res.Result)
	return 0
}

func runBackup(args []string, stdout, stderr io.Writer) int {
	return copyDatabase("backup", args, stdout, stderr, (*store.Store).BackupFile,
		"backed up %s to %s (the master key file is not included: keep it apart)")
}

func runCompact(args []string, stdout, stderr io.Writer) int {
	return copyDatabase("compact", args, stdout, stderr, (*store.Store).Compact,
		"wrote a compacted copy of %s to %s; stop the service, keep the old file, and move the copy into its place to use it")
}

// copyDatabase is backup and compact: write a copy of the database to FILE.
// A running service holds the database, so it is asked to write the copy
// (verb is the control request); otherwise the database is opened here.
// done describes the result, given the source and the copy's path.
func copyDatabase(verb string, args []string, stdout, stderr io.Writer, write func(*store.Store, string) error, done string) int {
	fs := flag.NewFlagSet(verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf storeFlags
	sf.register(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "usage: bottlepost %s FILE [--data DIR]\n", verb)
		return 2
	}
	dst, err := filepath.Abs(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "bottlepost: %s: %v\n", verb, err)
		return 2
	}
	if _, err := daemon.Request(sf.data, verb+" "+dst); err == nil {
		fmt.Fprintf(stdout, done+"\n", "the running service's database", dst)
		return 0
	} else if !errors.Is(err, daemon.ErrNotRunning) {
		fmt.Fprintf(stderr, "bottlepost: %s: %v\n", verb, err)
		return 1
	}
	st, err := sf.open(true)
	if err != nil {
		fmt.Fprintf(stderr, "bottlepost: %s: %v\n", verb, err)
		return 1
	}
	defer st.Close()
	if err := write(st, dst); err != nil {
		fmt.Fprintf(stderr, "bottlepost: %s: %v\n", verb, err)
		return 1
	}
	fmt.Fprintf(stdout, done+"\n", st.Path(), dst)
	return 0
}
