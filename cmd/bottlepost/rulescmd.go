package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
)

// gameFlags are the flags every rules command takes to set up a game.
type gameFlags struct {
	rules, fen string
	seed       uint64
}

func (g *gameFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&g.rules, "rules", "", "the ruleset (default: the variant's first)")
	fs.Uint64Var(&g.seed, "seed", 0, "the seed for a random setup (rulesets that use one)")
	fs.StringVar(&g.fen, "fen", "", "a start position in the variant's own notation (FEN for chess)")
}

// parseInterspersed parses flags that may stand between positional
// arguments and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// setUp starts a game of the named variant and plays the moves, read as
// mail reads them: each in the variant's notation, its number before it
// or as an argument of its own ("1.", "12...", "12…") read past with
// rules.TrimMoveNumber. It reports problems on stderr, naming a move by
// its number as players count them ("move 12...", firstPly), and returns
// the exit status to use when the state is nil.
func setUp(id string, g gameFlags, moves []string, stderr io.Writer) (rules.State, int) {
	v, err := variants.Lookup(id)
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost:", err)
		return nil, 2
	}
	s, err := v.New(rules.Options{Ruleset: g.rules, Seed: g.seed, Position: g.fen})
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost:", err)
		return nil, 2
	}
	i := firstPly(v, g, s)
	for _, arg := range moves {
		text := rules.TrimMoveNumber(arg)
		if text == "" {
			continue // a move number alone
		}
		m, err := s.Parse(text)
		if err == nil {
			s, _, err = s.Apply(m)
		}
		if err != nil {
			var me *rules.MoveError
			if errors.As(err, &me) {
				fmt.Fprintf(stderr, "move %s %s\n", rules.MoveLabel(i), me.Kind.String()+" "+me.Player())
			} else {
				fmt.Fprintf(stderr, "move %s %q: %v\n", rules.MoveLabel(i), text, err)
			}
			return nil, 1
		}
		i++
	}
	return s, 0
}

// firstPly is the ply (from the game's first move) of the first move
// played from s, the game set up for the command line: 0 from the start; a
// position given with --fen may be the reply's turn (its side to move is
// not the variant's first mover) and, in chess, later in the game (the
// FEN's full-move number).
func firstPly(v rules.Variant, g gameFlags, s rules.State) int {
	if g.fen == "" {
		return 0
	}
	ply := 0
	if start, err := v.New(rules.Options{Ruleset: g.rules, Seed: g.seed}); err == nil && start.ToMove() != s.ToMove() {
		ply = 1
	}
	if f := strings.Fields(g.fen); v.ID() == "chess" && len(f) == 6 {
		if n, err := strconv.Atoi(f[5]); err == nil && n > 1 {
			ply += 2 * (n - 1)
		}
	}
	return ply
}

func runVariants(args []string, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintln(stderr, "usage: bottlepost variants")
		return 2
	}
	for _, id := range variants.IDs {
		line := id + " " + variants.Name(id)
		if _, err := variants.Lookup(id); err != nil {
			line += " (not built yet)"
		}
		fmt.Fprintln(stdout, line)
	}
	return 0
}

func runMoves(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("moves", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var g gameFlags
	g.register(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) < 1 {
		fmt.Fprintln(stderr, "usage: bottlepost moves VARIANT [--rules R] [--seed N] [--fen POS] [MOVE...]")
		return 2
	}
	s, code := setUp(pos[0], g, pos[1:], stderr)
	if s == nil {
		return code
	}
	texts := make([]string, 0, 64)
	for _, m := range s.Moves() {
		texts = append(texts, s.Format(m))
	}
	sort.Strings(texts)
	for _, t := range texts {
		fmt.Fprintln(stdout, t)
	}
	return 0
}

func runBoard(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("board", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var g gameFlags
	g.register(fs)
	as := fs.String("as", "referee", "the viewer: white, black, referee or public")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) < 1 {
		fmt.Fprintln(stderr, "usage: bottlepost board VARIANT [--as white|black|referee|public] [MOVE...]")
		return 2
	}
	s, code := setUp(pos[0], g, pos[1:], stderr)
	if s == nil {
		return code
	}
	sides := s.Variant().Sides()
	viewer, err := rules.ParseViewer(*as, sides[0], sides[1])
	if err != nil {
		fmt.Fprintln(stderr, "bottlepost:", err)
		return 2
	}
	fmt.Fprint(stdout, s.View(viewer).ASCII())
	return 0
}

func runPerft(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var g gameFlags
	g.register(fs)
	divide := fs.Bool("divide", false, "print a line per first move before the total")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) < 2 {
		fmt.Fprintln(stderr, "usage: bottlepost perft VARIANT DEPTH [--fen FEN] [--divide] [MOVE...]")
		return 2
	}
	depth, err := strconv.Atoi(pos[1])
	if err != nil || depth < 0 {
		fmt.Fprintf(stderr, "bottlepost: perft: depth %q is not a whole number ≥ 0\n", pos[1])
		return 2
	}
	s, code := setUp(pos[0], g, pos[2:], stderr)
	if s == nil {
		return code
	}
	if *divide && depth > 0 {
		var total uint64
		entries := rules.Divide(s, depth)
		sort.Slice(entries, func(i, j int) bool { return entries[i].Move < entries[j].Move })
		for _, e := range entries {
			fmt.Fprintf(stdout, "%s: %d\n", e.Move, e.Nodes)
			total += e.Nodes
		}
		fmt.Fprintln(stdout, total)
		return 0
	}
	fmt.Fprintln(stdout, rules.Perft(s, depth))
	return 0
}
