package record

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// maxExport bounds the file Verify reads.
const maxExport = 64 << 20

// Verification is the outcome of Verify: what the file shows and what was checked. Every
// field comes from the hashed records (or, for a game recorded in format 1, from the
// export where Unbound says so).
type Verification struct {
	Game        uint64
	Variant     string // the variant's name
	Ruleset     string
	TimeControl string
	Players     [2]string // White, Black
	Status      string
	Result      string
	Termination string
	Moves       int // plies that stand: each side's move counts once (rules.FullMoves counts as players do)
	Secret      int
	Takebacks   int // moves taken back by consent (record kind takeback)
	Records     uint32
	Head        string
	// Anchor is the latest receipt given that the file matches (zero Records when none was
	// given): the records up to it are the ones its holder was sent.
	Anchor store.Receipt
	// Unbound names what a file of record format 1 shows that no record binds.
	Unbound []string
	Checks  []string // one line per check that passed
}

// Anchoring says, in one line, how far the file is anchored by the receipts given.
func (v *Verification) Anchoring() string {
	switch {
	case v.Anchor.Records == 0:
		return "only self-consistent: no receipt anchors it, so a forger who rewrote the whole record could have made it; give the receipts from your mails (RECORDS:HEAD) to check it is the game you were sent"
	case v.Anchor.Records >= v.Records:
		return fmt.Sprintf("anchored by your receipt %s: all %d records are the ones you were sent", v.Anchor, v.Records)
	}
	return fmt.Sprintf("anchored by your receipt %s up to record %d of %d; records %d to %d are only self-consistent (a later receipt anchors them)",
		v.Anchor, v.Anchor.Records, v.Records, v.Anchor.Records+1, v.Records)
}

// Verify checks an exported game (Export's file, or the store's export as JSON) without
// the database or the key, as docs/verify.md specifies: the hash chain matches its head and
// every receipt given (any order); every commitment to a secret move opens to the move
// revealed; every readable field agrees with the hashed record; the start and end records
// bind the variant, ruleset, setup, time control, players, status, result and termination,
// and the export's game fields agree with them; every move is legal when the game is
// replayed from its start and a result the rules reach is the one recorded; and the PGN
// (tags, move text, comments) is exactly the one the verified record gives, with nothing
// after it. receipts are heads a player was sent ("RECORDS:HEAD" in every mail).
func Verify(r io.Reader, receipts ...store.Receipt) (*Verification, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxExport+1))
	if err != nil {
		return nil, fmt.Errorf("record: verify: %w", err)
	}
	if len(data) > maxExport {
		return nil, fmt.Errorf("record: verify: the file is larger than %d MiB: not an exported game", maxExport>>20)
	}
	data = normalizeFile(data)
	x, pgn, err := readExport(data)
	if err != nil {
		return nil, fmt.Errorf("record: verify: %w", err)
	}
	res, err := verifyExport(x, receipts)
	if err != nil {
		return res, fmt.Errorf("record: verify: %w", err)
	}
	if pgn == nil {
		return res, nil // the store's JSON: no PGN to compare
	}
	want, err := render(x, formMarked)
	if err != nil {
		return res, fmt.Errorf("record: verify: %w", err)
	}
	if !bytes.Equal(data, want) {
		// A file written before the PGN's form changed (formPlain) still verifies; a
		// file in neither form is compared with the one it is written like.
		before, err := render(x, formPlain)
		if err != nil {
			return res, fmt.Errorf("record: verify: %w", err)
		}
		if !bytes.Equal(data, before) {
			if !bytes.Contains(data, []byte("\n[TimeControlDays ")) && !bytes.Contains(data, []byte("\n[TimeControl \"-\"]")) {
				want = before
			}
			return res, fmt.Errorf("record: verify: %w", pgnDifference(string(data), string(want)))
		}
		res.Checks = append(res.Checks, "the PGN's tags, moves and comments are exactly the ones the verified record gives, in the form written before November 2026 (TimeControl \"3d\", moves without their marks)")
		return res, nil
	}
	res.Checks = append(res.Checks, "the PGN's tags, moves and comments are exactly the ones the verified record gives")
	return res, nil
}

var blockStart = []byte("{" + store.ExportFormat)

// normalizeFile undoes what saving a file from a mail may do to it: CRLF line ends become
// LF, and blank lines after the record go.
func normalizeFile(data []byte) []byte {
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	if t := bytes.TrimRight(data, " \t\n"); len(t) > 0 && t[len(t)-1] == '}' {
		data = append(t, '\n')
	}
	return data
}

// readExport finds the embedded export in a file (or reads the store's JSON) and decodes
// it strictly. pgn is the file's text before the block (nil for JSON).
func readExport(data []byte) (*store.Export, []byte, error) {
	var x store.Export
	t := bytes.TrimSpace(data)
	if len(t) > 0 && t[0] == '{' && !bytes.HasPrefix(t, blockStart) {
		if err := decodeStrict(t, &x); err != nil {
			return nil, nil, fmt.Errorf("not an exported game: %w", err)
		}
		return &x, nil, nil
	}
	i := bytes.Index(data, blockStart)
	if i < 0 {
		return nil, nil, errors.New("no " + store.ExportFormat + " block in the file: was it written by bottlepost export, or saved from the bp-N.pgn attachment of a final mail?")
	}
	n := bytes.IndexByte(data[i:], '}')
	if n < 0 {
		return nil, nil, errors.New("the " + store.ExportFormat + " block has no end: the file was cut short")
	}
	if rest := data[i+n+1:]; len(bytes.TrimSpace(rest)) > 0 {
		return nil, nil, fmt.Errorf("text after the record (%d bytes, beginning %q): a file holds one game and nothing after its record", len(rest), clip(string(bytes.TrimSpace(rest)), 40))
	}
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(data[i+len(blockStart):i+n])), ""))
	if err != nil {
		return nil, nil, fmt.Errorf("the export block is damaged: %w", err)
	}
	if err := decodeStrict(raw, &x); err != nil {
		return nil, nil, fmt.Errorf("the export block is damaged: %w", err)
	}
	return &x, data[:i], nil
}

// decodeStrict decodes one JSON value with no unknown fields and nothing after it.
func decodeStrict(b []byte, x *store.Export) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(x); err != nil {
		return err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return errors.New("data after the export")
	}
	return nil
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// verifyExport checks the export itself, check by check: the chain and the receipts, the
// terms the start and end records bind against the export's game fields, the kinds of the
// records, and the moves on replay. Each check that passes adds its line to res.Checks.
func verifyExport(x *store.Export, receipts []store.Receipt) (*Verification, error) {
	res := &Verification{Game: x.Game.ID, Records: x.Game.Records, Head: x.Game.Head.String()}
	if err := res.checkChain(x, receipts); err != nil {
		return res, err
	}
	f, err := readFacts(x)
	if err != nil {
		return res, err
	}
	v, err := res.checkTerms(x, f)
	if err != nil {
		return res, err
	}
	moves, err := res.checkRecords(x, f)
	if err != nil {
		return res, err
	}
	return res, res.checkReplay(v, f, moves)
}

// checkChain checks the hash chain against the game's head and every receipt, and every
// commitment against its opening (store.VerifyExport), and sets the anchor: the latest
// receipt.
func (res *Verification) checkChain(x *store.Export, receipts []store.Receipt) error {
	if err := store.VerifyExport(x, receipts...); err != nil {
		return err
	}
	for _, rc := range receipts {
		if rc.Records > res.Anchor.Records {
			res.Anchor = rc
		}
	}
	res.Checks = append(res.Checks, fmt.Sprintf("hash chain of %d records intact, head %s", len(x.Records), x.Game.Head))
	if len(receipts) > 0 {
		res.Checks = append(res.Checks, fmt.Sprintf("%d receipt(s) match the chain, the latest after %d records", len(receipts), res.Anchor.Records))
	}
	return nil
}

// boundField is one of the export's game fields beside what the hashed records bind.
type boundField struct {
	name, exported, bound string
}

// checkTerms fills in the game's terms, players and result as the start and end records
// bind them (for format 1, what the export says, named in Unbound), and checks that the
// export's game fields are the bound ones. It returns the game's variant.
func (res *Verification) checkTerms(x *store.Export, f *facts) (rules.Variant, error) {
	s, e, g := f.start, f.end, x.Game
	variantID := s.Variant
	if f.old {
		variantID = g.Variant // format 1 names it nowhere else
	}
	v, err := variants.Lookup(variantID)
	if err != nil {
		return nil, err
	}
	res.Variant, res.Ruleset, res.Result, res.Termination = v.Name(), s.Ruleset, e.Result, e.Termination
	gameResult := g.Result
	if gameResult == "" {
		gameResult = "*"
	}
	fields := []boundField{
		{"ruleset", g.Ruleset, s.Ruleset},
		{"result", gameResult, e.Result},
		{"created", g.Created.UTC().Format("2006-01-02T15:04:05.999999999Z"), x.Records[0].At.UTC().Format("2006-01-02T15:04:05.999999999Z")},
		{"hidden", strconv.FormatBool(g.Hidden), strconv.FormatBool(v.Hidden())},
	}
	if f.old {
		res.TimeControl, res.Players, res.Status = g.TimeControl, g.Players, g.Status
		res.Unbound = []string{"players", "status", "time_control", "variant"}
	} else {
		res.TimeControl, res.Players, res.Status = s.Time, e.Players, e.Status
		fields = append(fields,
			boundField{"variant", g.Variant, s.Variant},
			boundField{"time_control", g.TimeControl, s.Time},
			boundField{"status", g.Status, e.Status},
			boundField{"players", quotePair(g.Players), quotePair(e.Players)},
		)
		for _, c := range []boundField{{"variant", e.Variant, s.Variant}, {"ruleset", e.Ruleset, s.Ruleset}, {"time control", e.Time, s.Time}} {
			if c.exported != c.bound {
				return nil, fmt.Errorf("the end record's %s %q is not the start record's %q", c.name, c.exported, c.bound)
			}
		}
	}
	for _, c := range fields {
		if c.exported != c.bound {
			return nil, fmt.Errorf("the embedded record's %q is %s, but the hashed records say %s", c.name, strconv.Quote(c.exported), strconv.Quote(c.bound))
		}
	}
	res.Checks = append(res.Checks, "the start and end records bind the game's terms, players and result, and the export agrees with them")
	return v, nil
}

// checkRecords checks what lies between the start and the end record (moves and
// takebacks only, in format 2), counts the secret moves and the takebacks, and returns the
// game's line: the moves' texts as submitted and the takebacks. A takeback must name the
// move that stands last: its side and its ply.
func (res *Verification) checkRecords(x *store.Export, f *facts) ([]Step, error) {
	var moves []Step
	var standing []store.ExportRecord // the move records that stand
	for i, rec := range x.Records {
		switch {
		case rec.Kind == store.KindMove:
			moves = append(moves, Step{Text: rec.Text})
			standing = append(standing, rec)
			if rec.Secret {
				res.Secret++
			}
		case rec.Kind == store.KindTakeback:
			if len(standing) == 0 {
				return nil, fmt.Errorf("record %d takes back a move, but no move stands", i)
			}
			last := standing[len(standing)-1]
			if last.Side != rec.Side || last.Ply != rec.Ply {
				return nil, fmt.Errorf("record %d takes back %s's move at ply %d, but the move that stands last is %s's at ply %d", i, rec.Side, rec.Ply, last.Side, last.Ply)
			}
			standing = standing[:len(standing)-1]
			moves = append(moves, Step{Takeback: true})
			res.Takebacks++
		case i > 0 && i < len(x.Records)-1 && !f.old:
			return nil, fmt.Errorf("record %d is an event between the start and the end: this program writes none", i)
		}
	}
	if res.Secret > 0 {
		res.Checks = append(res.Checks, fmt.Sprintf("%d commitments to secret moves open to the moves revealed", res.Secret))
	}
	if f.end.Status == store.StatusAborted.String() && len(standing) > 0 {
		return nil, fmt.Errorf("the game is recorded as aborted, but it has %d moves", len(standing))
	}
	return moves, nil
}

// checkReplay replays the moves from the start the start record sets up: every one must be
// legal, and a result the rules reach must be the one the end record gives.
func (res *Verification) checkReplay(v rules.Variant, f *facts, moves []Step) error {
	final, plies, err := ReplayLine(v, f.start.options(), moves)
	if err != nil {
		return err
	}
	res.Moves = len(plies)
	if n := len(plies); n > 0 && plies[n-1].Err != nil {
		p := plies[n-1]
		return fmt.Errorf("move %s (%s) is not legal: %w", rules.MoveLabel(p.Index), p.Text, p.Err)
	}
	taken := ""
	if res.Takebacks > 0 {
		taken = fmt.Sprintf(", after %d taken back by consent, each legal where it was played", res.Takebacks)
	}
	res.Checks = append(res.Checks, fmt.Sprintf("all %d moves legal on replay from the start%s", rules.FullMoves(len(plies)), taken))
	o := final.Outcome()
	if !o.Over() {
		return nil
	}
	if o.Result() != f.end.Result {
		return fmt.Errorf("the moves end in %s (%s), but the recorded result is %q", o.Result(), o.Reason, f.end.Result)
	}
	if d := o.Describe(v.Sides()); !f.old && d != f.end.Termination {
		return fmt.Errorf("the moves end the game (%s), but the end record says %q", d, f.end.Termination)
	}
	res.Checks = append(res.Checks, "the rules end the game with the recorded result")
	return nil
}

func quotePair(p [2]string) string { return strconv.Quote(p[0]) + " v " + strconv.Quote(p[1]) }
