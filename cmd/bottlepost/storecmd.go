package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/config"
	"github.com/bottlepost/bottlepost/daemon"
	"github.com/bottlepost/bottlepost/game"
	"github.com/bottlepost/bottlepost/record"
	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
)

// defaultDataDir is where the service keeps its database when not told otherwise.
const defaultDataDir = "bottlepost-data"

// storeFlags locate the database and its key: --config reads them from the service's
// configuration (service.data_dir, service.key_file), --data, --db and --key override it.
type storeFlags struct{ config, data, db, key string }

func (s *storeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.config, "config", "", "the service's configuration file, for its data directory and key file")
	fs.StringVar(&s.data, "data", "", "the data directory (default: the configuration's, else "+defaultDataDir+")")
	fs.StringVar(&s.db, "db", "", "the database file (default DATA/bottlepost.db)")
	fs.StringVar(&s.key, "key", "", "the master key file (default: the configuration's, else DATA/bottlepost.key)")
}

// given reports whether any of the flags was set.
func (s *storeFlags) given() bool { return *s != storeFlags{} }

// resolve fills the data directory and key file from the configuration where the flags
// leave them open.
func (s *storeFlags) resolve() error {
	if s.config != "" {
		cfg, err := config.Load(s.config)
		if err != nil {
			return err
		}
		if s.data == "" {
			s.data = cfg.Service.DataDir
		}
		if s.key == "" {
			s.key = cfg.Service.KeyFile
		}
	}
	if s.data == "" {
		s.data = defaultDataDir
	}
	return nil
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
	commands["export"] = command{"export GAME | --tournament N [--config FILE] [--data DIR] [-o FILE]  write a finished game (or every finished game of a tournament) as PGN with its proofs", runExport}
	commands["verify"] = command{"verify FILE [RECEIPT...] [--config FILE] [--data DIR]  check an exported game against your receipts (RECORDS:HEAD); -h for its exit statuses", runVerify}
	commands["compact"] = command{"compact FILE [--config FILE] [--data DIR]  write a compacted copy of the database (swap it in while stopped)", runCompact}
	commands["backup"] = command{"backup FILE [--config FILE] [--data DIR]  copy the database while the service runs", runBackup}
	commands["check-store"] = command{"check-store [--config FILE] [--data DIR | --db FILE]  check the database: pages, every game's chain and sealed records, every record, indexes, the service's data", runCheckStore}
}

func runExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf storeFlags
	sf.register(fs)
	out := fs.String("o", "", "write to this file instead of standard output")
	tour := fs.Uint64("tournament", 0, "write every finished game of this tournament, one file after another")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if *tour != 0 && len(pos) == 0 {
		if err := sf.resolve(); err != nil {
			fmt.Fprintln(stderr, "bottlepost: export:", err)
			return 2
		}
		return exportTournament(sf, *tour, *out, stdout, stderr)
	}
	if len(pos) != 1 || *tour != 0 {
		fmt.Fprintln(stderr, "usage: bottlepost export GAME | --tournament N [--config FILE] [--data DIR] [-o FILE]")
		return 2
	}
	if err := sf.resolve(); err != nil {
		fmt.Fprintln(stderr, "bottlepost: export:", err)
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
	var pgn []byte
	if err := st.View(func(tx *store.Tx) error {
		var err error
		pgn, err = record.FinalPGN(tx, id)
		return err
	}); err != nil {
		fmt.Fprintln(stderr, "bottlepost: export:", err)
		return 1
	}
	if *out == "" {
		stdout.Write(pgn)
		return 0
	}
	if err := os.WriteFile(*out, pgn, 0o644); err != nil {
		fmt.Fprintln(stderr, "bottlepost: export:", err)
		return 1
	}
	return 0
}

// exportTournament writes every finished game of tournament id
// (game.TournamentPGN), reading the database: the service must be stopped
// (while it runs, its web view serves the same file, /tournaments/N.pgn).
func exportTournament(sf storeFlags, id uint64, out string, stdout, stderr io.Writer) int {
	st, err := sf.open(true)
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost: export:", err, "(while the service runs, its web view serves /tournaments/N.pgn)")
		return 1
	}
	defer st.Close()
	var pgn []byte
	if err := st.View(func(tx *store.Tx) error {
		var err error
		pgn, err = game.TournamentPGN(tx, id)
		return err
	}); err != nil {
		if errors.Is(err, game.ErrNotPublic) {
			err = fmt.Errorf("tournament %d: not found", id)
		}
		fmt.Fprintln(stderr, "bottlepost: export:", err)
		return 1
	}
	if out == "" {
		stdout.Write(pgn)
		return 0
	}
	if err := os.WriteFile(out, pgn, 0o644); err != nil {
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

// Exit statuses of bottlepost verify (docs/verify.md, "Exit statuses").
const (
	verifyAnchored = 0 // verified, and a receipt given covers every record
	verifyRefused  = 1 // refused: the file, a receipt or the database disagrees
	verifyUsage    = 2 // bad arguments, or the file cannot be read
	verifyPartly   = 3 // verified, but the latest receipt given covers only the first records
	verifyUnproved = 4 // verified, but no receipt was given: only self-consistent
)

// verifyHelp is what bottlepost verify -h prints after the usage line.
const verifyHelp = `Checks a game's record (bp-N.pgn, from the final mail, "pgn N" or bottlepost export)
offline: the hash chain, every receipt given, the commitments to secret moves, the start
and end records, every move, line and the ending on replay with the rules, and the file
byte for byte. RECEIPT is RECORDS:HEAD as the game's mails quote it (or the head alone, as
mails before RECORDS:HEAD quoted it); give every one you kept, in any order. With --config,
--data, --db or --key the file is also compared with the game in that database.
Text taken from the file is printed with control characters escaped (\x1b, \u202e).
See docs/verify.md.

Exit status:
  0  verified, and anchored by a receipt covering the whole file (the final receipt)
  1  refused: the file, a receipt, or the database disagrees (the FAILED: line says where)
  2  bad arguments, or the file cannot be read
  3  verified, but anchored only up to the latest receipt given, which does not cover
     the whole file
  4  verified, but only self-consistent: no receipt given
`

func runVerify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf storeFlags
	sf.register(fs)
	const usage = "usage: bottlepost verify FILE [RECEIPT...] [--config FILE] [--data DIR]"
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), usage)
		fmt.Fprint(fs.Output(), verifyHelp)
		fmt.Fprintln(fs.Output(), "\nFlags:")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return verifyUsage
	}
	if len(pos) < 1 {
		fmt.Fprintln(stderr, usage)
		fmt.Fprintln(stderr, "  RECEIPT is RECORDS:HEAD as quoted in the game's mails; give every one you kept, in any order.")
		fmt.Fprintln(stderr, "  With --config, --data, --db or --key the file is also compared with the game in that database.")
		fmt.Fprintln(stderr, "  bottlepost verify -h says more, and what its exit statuses mean.")
		return verifyUsage
	}
	var receipts []store.Receipt
	for _, a := range pos[1:] {
		rc, err := store.ParseReceipt(a)
		if err != nil {
			fmt.Fprintf(stderr, "bottlepost: verify: %s is not a receipt: write it as the mails quote it, RECORDS:HEAD (e.g. 14:%s)\n", printable(strconv.Quote(a)), strings.Repeat("0", 64))
			return verifyUsage
		}
		receipts = append(receipts, rc)
	}
	data, err := os.ReadFile(pos[0])
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost: verify:", printable(err.Error()))
		return verifyUsage
	}
	res, err := record.Verify(bytes.NewReader(data), receipts...)
	if res != nil {
		for _, c := range res.Checks {
			say(stdout, "ok: %s", c)
		}
	}
	if err == nil && sf.given() {
		err = compareWithDatabase(&sf, res.Game, data, stdout)
	}
	if err != nil {
		// errors.Join puts one problem a line; file text in them is escaped, line ends too.
		for _, line := range strings.Split(strings.TrimPrefix(err.Error(), "record: verify: "), "\n") {
			say(stdout, "FAILED: %s", line)
		}
		return verifyRefused
	}
	for _, n := range res.Notes {
		say(stdout, "note: %s", n)
	}
	say(stdout, "verified: game %d (%s, %s, %s): %s v %s, %d moves (%d secret), %s (%s)",
		res.Game, res.Variant, res.Ruleset, orNone(res.TimeControl), res.Players[0], res.Players[1], rules.FullMoves(res.Moves), res.Secret, res.Result, orNone(res.Termination))
	say(stdout, "%s", res.Anchoring())
	switch {
	case res.Anchor.Records >= res.Records:
		return verifyAnchored
	case res.Anchor.Records > 0:
		return verifyPartly
	}
	return verifyUnproved
}

// say writes one line of verify's output, its control characters escaped: the file's
// text must not move the cursor, clear a line, recolour or reorder what verify says, nor
// begin a line of its own.
func say(w io.Writer, format string, args ...any) {
	fmt.Fprintln(w, printable(fmt.Sprintf(format, args...)))
}

// printable escapes what a terminal would act on instead of showing: C0 and C1 control
// characters (tabs and line ends included), DEL, the format characters (the bidirectional
// controls U+061C, U+200E, U+200F, U+202A–U+202E and U+2066–U+2069 among them), the line
// and paragraph separators U+2028 and U+2029, and bytes that are not UTF-8. Each is written
// as Go writes it in a quoted string (\x1b, \n, \u202e).
func printable(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case !unicode.IsControl(r) && !unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// compareWithDatabase checks that data is, byte for byte, the export of game id as the
// database named by sf holds it (asking a running service, else opening it read-only).
func compareWithDatabase(sf *storeFlags, id uint64, data []byte, stdout io.Writer) error {
	if err := sf.resolve(); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "bottlepost-verify-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var held []byte
	path := filepath.Join(dir, "game.pgn")
	if _, err := daemon.Request(sf.data, fmt.Sprintf("export %d %s", id, path)); err == nil {
		if held, err = os.ReadFile(path); err != nil {
			return err
		}
	} else if !errors.Is(err, daemon.ErrNotRunning) {
		return fmt.Errorf("the service holding the database: %w", err)
	} else {
		st, err := sf.open(true)
		if err != nil {
			return err
		}
		defer st.Close()
		if err := st.View(func(tx *store.Tx) error {
			var err error
			held, err = record.FinalPGN(tx, id)
			return err
		}); err != nil {
			return fmt.Errorf("game %d in the database: %w", id, err)
		}
	}
	// The embedded records are compared: Verify found the PGN before them to be the one
	// they give, in the form of now or of before (a file kept from earlier).
	records := func(file []byte) []byte {
		file = bytes.TrimRight(bytes.ReplaceAll(file, []byte("\r\n"), []byte("\n")), " \t\n")
		return file[max(bytes.Index(file, []byte("\n{"+store.ExportFormat)), 0):]
	}
	if !bytes.Equal(records(data), records(held)) {
		return fmt.Errorf("the file is not game %d as the database holds it", id)
	}
	fmt.Fprintf(stdout, "ok: the file is game %d exactly as the database holds it\n", id)
	return nil
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
		fmt.Fprintf(stderr, "usage: bottlepost %s FILE [--config FILE] [--data DIR]\n", verb)
		return 2
	}
	if err := sf.resolve(); err != nil {
		fmt.Fprintf(stderr, "bottlepost: %s: %v\n", verb, err)
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
	} else if errors.Is(err, daemon.ErrStopped) {
		// The service died (or was stopped) while it wrote the copy: its
		// temporary file is nobody's now.
		removed, rerr := store.RemoveStaleCopies(dst)
		fmt.Fprintf(stderr, "bottlepost: %s: the service stopped during the copy; %s was not written", verb, dst)
		switch {
		case rerr != nil:
			fmt.Fprintf(stderr, " (%v)", rerr)
		case len(removed) > 0:
			fmt.Fprintf(stderr, "; its unfinished copy was removed")
		}
		fmt.Fprintln(stderr, ". Run the command again once the service is back (or without it).")
		return 1
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

// runCheckStore checks the database: bbolt's consistency check of its pages,
// the store's own (Store.Verify: every game's chain, sealed records and
// commitments, every record of every kind, the indexes) and the game
// service's (game.Check: its data in every game, player and setting). A running service does it on its open database
// (through the control socket); otherwise the file is opened read-only. One
// line per problem, naming the game where there is one; exit status 0 when
// there is none, 1 when there are, 2 when the check could not run.
func runCheckStore(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check-store", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var sf storeFlags
	sf.register(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 0 {
		fmt.Fprintln(stderr, "usage: bottlepost check-store [--config FILE] [--data DIR | --db FILE [--key FILE]]")
		return 2
	}
	if err := sf.resolve(); err != nil {
		fmt.Fprintln(stderr, "bottlepost: check-store:", err)
		return 2
	}
	var problems []string
	where := ""
	if sf.db == "" {
		answer, lines, err := daemon.RequestLines(sf.data, "check")
		switch {
		case err == nil && strings.HasPrefix(answer, "ok"):
			problems, where = lines, "the running service's database"
		case errors.Is(err, daemon.ErrNotRunning):
		case err != nil:
			fmt.Fprintln(stderr, "bottlepost: check-store:", err)
			return 2
		}
	}
	if where == "" {
		st, err := sf.open(true)
		if err != nil {
			fmt.Fprintln(stderr, "bottlepost: check-store:", err)
			if errors.Is(err, store.ErrCorrupt) {
				fmt.Fprintln(stdout, err)
				return 1
			}
			return 2
		}
		ctx := context.Background()
		for _, p := range append(store.Problems(st.Verify(ctx)), store.Problems(game.Check(ctx, st))...) {
			problems = append(problems, p.Error())
		}
		where = st.Path()
		st.Close()
	}
	for _, p := range problems {
		fmt.Fprintln(stdout, strings.ReplaceAll(p, "\n", " "))
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "bottlepost: check-store: %s: %d problems; the games named cannot be trusted: restore them from a backup\n", where, len(problems))
		return 1
	}
	fmt.Fprintf(stdout, "%s: no problem found (pages, chains, sealed records, every record, indexes, the service's data)\n", where)
	return 0
}
