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
	// Ruling is the rules' ending at the last position ("checkmate (FIDE 5.1.1)" as the
	// termination says it), when they end the game there; empty otherwise.
	Ruling string
	// ServersWord is the kind of ending when the rules do not end the game at its last
	// position: a resignation, an agreement, time, a referee's decision or a declined
	// challenge, which the record binds but cannot prove. Zero when Ruling is set.
	ServersWord ServerEnding
	// Unbound names what a file of record format 1 shows that no record binds.
	Unbound []string
	Checks  []string // one line per check that passed
	// Notes say what the checks cannot prove: what a format 1 record leaves unbound, an
	// ending that is the server's word.
	Notes []string
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
// and the export's game fields agree with them; replayed from its start with the rules'
// reports, every move is legal, at its ply, the side to move's, spelled as the rules spell
// it, secret exactly when they hide it, and told to the public and to each side exactly as
// they report it; the end record follows the last move, and its ending is the rules' when
// they end the game there, else one of the endings that are the server's word (noted as
// such); and the PGN (tags, move text, comments) is exactly the one the verified record
// gives, with nothing after it. receipts are heads a player was sent ("RECORDS:HEAD" in
// every mail, or a head alone as older mails quoted it).
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

// afterBlock are the bytes that may follow the export block's closing brace, in any number
// (none included): what saving a file from a mail may leave there.
const afterBlock = " \t\r\n"

// normalizeFile undoes what saving a file from a mail may do to it: CRLF line ends become
// LF, and what follows the block's closing brace (blank lines, or no final line feed at
// all) becomes the one line feed bottlepost writes.
func normalizeFile(data []byte) []byte {
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	if t := bytes.TrimRight(data, afterBlock); len(t) > 0 && t[len(t)-1] == '}' {
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
	if rest := bytes.TrimLeft(data[i+n+1:], afterBlock); len(rest) > 0 {
		return nil, nil, fmt.Errorf("text after the record (%d bytes, beginning %q): a file holds one game and nothing after its record", len(rest), clip(string(rest), 40))
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
	if err := res.checkRecords(x, f); err != nil {
		return res, err
	}
	return res, res.checkReplay(v, x, f)
}

// checkChain checks the hash chain against the game's head and every receipt, and every
// commitment against its opening (store.VerifyExport), and sets the anchor: the latest
// receipt.
func (res *Verification) checkChain(x *store.Export, receipts []store.Receipt) error {
	if err := store.VerifyExport(x, receipts...); err != nil {
		return err
	}
	for _, rc := range receipts {
		if rc.Uncounted {
			rc.Records = covered(x, rc.Head) // store.VerifyExport found it on the chain
		}
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

// covered is how many records the chain head h covers: the head after them (0: the
// chain's start).
func covered(x *store.Export, h store.Digest) uint32 {
	for i, r := range x.Records {
		if r.Hash == h {
			return uint32(i + 1)
		}
	}
	return 0
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
		res.Notes = append(res.Notes, "this game was recorded before bottlepost bound "+strings.Join(res.Unbound, ", ")+" to its record; they are shown as exported, not verified")
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

// checkRecords checks what lies between the start and the end record (moves and takebacks
// only, in format 2), counts the secret moves and the takebacks. A takeback must name the
// move that stands last: its side and its ply.
func (res *Verification) checkRecords(x *store.Export, f *facts) error {
	var standing []store.ExportRecord // the move records that stand
	for i, rec := range x.Records {
		switch {
		case rec.Kind == store.KindMove:
			standing = append(standing, rec)
			if rec.Secret {
				res.Secret++
			}
		case rec.Kind == store.KindTakeback:
			if len(standing) == 0 {
				return fmt.Errorf("record %d takes back a move, but no move stands", i)
			}
			last := standing[len(standing)-1]
			if last.Side != rec.Side || last.Ply != rec.Ply {
				return fmt.Errorf("record %d takes back %s's move at ply %d, but the move that stands last is %s's at ply %d", i, rec.Side, rec.Ply, last.Side, last.Ply)
			}
			standing = standing[:len(standing)-1]
			res.Takebacks++
		case i > 0 && i < len(x.Records)-1 && !f.old:
			return fmt.Errorf("record %d is an event between the start and the end: this program writes none", i)
		}
	}
	if res.Secret > 0 {
		res.Checks = append(res.Checks, fmt.Sprintf("%d commitments to secret moves open to the moves revealed", res.Secret))
	}
	if f.end.Status == store.StatusAborted.String() && len(standing) > 0 {
		return fmt.Errorf("the game is recorded as aborted, but it has %d moves", len(standing))
	}
	if start := x.Records[0]; start.Ply != 0 {
		return fmt.Errorf("the start record is at ply %d, not 0", start.Ply)
	}
	return nil
}

// checkReplay replays the moves from the start the start record sets up, with the rules'
// reports, and holds every record to them: each move is legal, the side to move's, at its
// ply, written as the rules write it, secret exactly when the rules hide it, and its public
// line and both sides' lines are the ones the rules report; the end record follows the last
// move (checkEnd), and says how the game ended as the rules do when they end it there
// (checkEnding).
func (res *Verification) checkReplay(v rules.Variant, x *store.Export, f *facts) error {
	var moves []store.ExportRecord // every move record, those taken back too
	var line []Step
	for _, rec := range x.Records {
		switch rec.Kind {
		case store.KindMove:
			moves = append(moves, rec)
			line = append(line, Step{Text: rec.Text})
		case store.KindTakeback:
			line = append(line, Step{Takeback: true})
		}
	}
	final, plies, all, err := replayLine(v, f.start.options(), line)
	if err != nil {
		return err
	}
	sides := v.Sides()
	for i, p := range all {
		rec := moves[i]
		if p.Err != nil {
			return fmt.Errorf("record %d, move %s %s of %s, is not legal: %w", rec.Index, rules.MoveLabel(p.Index), rec.Text, sides[p.Side], p.Err)
		}
		if err := checkMove(rec, p, sides); err != nil {
			return fmt.Errorf("record %d, move %s %s of %s: %w", rec.Index, rules.MoveLabel(p.Index), rec.Text, sides[p.Side], err)
		}
	}
	res.Moves = len(plies)
	taken := ""
	if res.Takebacks > 0 {
		taken = fmt.Sprintf(" (after %d taken back by consent, each legal where it was played)", res.Takebacks)
	}
	res.Checks = append(res.Checks, fmt.Sprintf("all %d moves (%d plies) legal on replay from the start%s, each the side to move's at its ply, written as the rules write it", rules.FullMoves(len(plies)), len(plies), taken),
		"every move's public line and both sides' lines are the ones the rules report")
	if err := res.checkEnd(x.Records[len(x.Records)-1], final, sides, len(plies)); err != nil {
		return err
	}
	return res.checkEnding(final, f.end, sides, f.old)
}

// checkMove holds one move record to the rules' report of it (p).
func checkMove(rec store.ExportRecord, p Ply, sides [2]string) error {
	r := p.Report
	switch {
	case int(rec.Ply) != p.Index:
		return fmt.Errorf("the record says ply %d, but it is ply %d", rec.Ply, p.Index)
	case rules.Side(rec.Side) != p.Side:
		return fmt.Errorf("the record says it is %s's move, but %s is to move", sideName(sides, rec.Side), sides[p.Side])
	case rec.Text != r.Text:
		return fmt.Errorf("the record writes it %q, but the rules write that move %q (a move has one spelling)", rec.Text, r.Text)
	case rec.Secret && !r.Secret:
		return errors.New("the record says it is secret, but the rules make it public")
	case !rec.Secret && r.Secret:
		return errors.New("the record shows it in the clear, but the rules make it secret")
	}
	for _, l := range []struct {
		whose     string
		got, want string
	}{
		{"the public line", rec.Public, r.Record[rules.ViewPublic]},
		{sides[0] + "'s line", rec.Lines[0], r.Record[rules.ViewWhite]},
		{sides[1] + "'s line", rec.Lines[1], r.Record[rules.ViewBlack]},
	} {
		if l.got != l.want {
			return fmt.Errorf("%s is %q, but the rules report %q", l.whose, l.got, l.want)
		}
	}
	return nil
}

func sideName(sides [2]string, s store.Side) string {
	if int(s) < len(sides) {
		return sides[s]
	}
	return fmt.Sprintf("side %d", s)
}

// checkEnd binds the end record to the last move: its ply is the number of moves and its
// side the side to move after them, the position its ending is judged at.
func (res *Verification) checkEnd(end store.ExportRecord, final rules.State, sides [2]string, moves int) error {
	if int(end.Ply) != moves {
		return fmt.Errorf("the end record is at ply %d, but the game has %d moves: the end does not follow the last move", end.Ply, moves)
	}
	if rules.Side(end.Side) != final.ToMove() {
		return fmt.Errorf("the end record is %s's, but after the last move %s is to move", sideName(sides, end.Side), sides[final.ToMove()])
	}
	res.Checks = append(res.Checks, fmt.Sprintf("the end record follows the last move (ply %d, %s to move)", moves, sides[final.ToMove()]))
	return nil
}

// checkEnding holds the end record's result and termination to the rules at the last
// position: when the rules end the game there, exactly their outcome (naming the ruling);
// when they do not, one of the endings that are the server's word (serversWord), which the
// verification notes as such. A record of format 1 (old) is held to the rules' result only,
// as verify always held it: its termination was written in the words of its day, which later
// programs may say otherwise (a ruling renumbered).
func (res *Verification) checkEnding(final rules.State, e End, sides [2]string, old bool) error {
	o := final.Outcome()
	if o.Over() {
		want := o.Describe(sides)
		if old && o.Result() == e.Result && want != e.Termination {
			res.Ruling = want
			res.Notes = append(res.Notes, fmt.Sprintf("the rules end the game at the last position with its result, %s %s; its record of format 1 says it in the words of its day, %q", o.Result(), want, e.Termination))
			return nil
		}
		if o.Result() != e.Result || want != e.Termination {
			return fmt.Errorf("the rules end the game at the last position: %s %s, but the end record says %s %q", o.Result(), want, e.Result, e.Termination)
		}
		res.Ruling = want
		res.Checks = append(res.Checks, fmt.Sprintf("the rules end the game at the last position as the end record says: %s %s", o.Result(), want))
		return nil
	}
	kind, err := serversWord(e, sides, final.ToMove())
	if err != nil {
		return fmt.Errorf("the rules do not end the game at the last position; %w", err)
	}
	res.ServersWord = kind
	res.Notes = append(res.Notes, fmt.Sprintf("the game ended by %s (%s %s): that is the server's word, which no record can prove (the rules do not end the game at the last position); compare your final receipt with your opponent's",
		kind, e.Result, e.Termination))
	return nil
}

func quotePair(p [2]string) string { return strconv.Quote(p[0]) + " v " + strconv.Quote(p[1]) }
