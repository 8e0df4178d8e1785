package record

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// ErrNotFinished is returned (wrapped) by FinalPGN for a game still being played: its
// secret moves stay sealed until it ends.
var ErrNotFinished = errors.New("record: the game has not ended")

// FinalPGN returns the file of a game that has ended (render): the bytes of the final
// mail's attachment, of the pgn command's answer, of the web view's /games/N.pgn and of
// bottlepost export. A game still being played gives ErrNotFinished, an unknown one
// store.ErrNotFound.
func FinalPGN(tx *store.Tx, id uint64) ([]byte, error) {
	g, err := tx.Game(id)
	if err != nil {
		return nil, err
	}
	if g.Status == store.StatusActive {
		return nil, fmt.Errorf("record: game %d is still being played: %w", id, ErrNotFinished)
	}
	x, err := tx.Export(id)
	if err != nil {
		return nil, err
	}
	return render(x, formMarked)
}

// pgnForm is the form of a format 2 game's PGN: the one written now, and the one
// written before (a file a player kept still verifies).
type pgnForm int

const (
	// formMarked: TimeControl as PGN's standard has it ("?" for a correspondence
	// control, "-" for none) and the control in TimeControlDays; each move with the
	// marks its record adds (check +, mate #, Baltic's points +N, markedText).
	formMarked pgnForm = iota
	// formPlain: TimeControl the control as bottlepost writes it ("3d"), each move
	// as submitted (files exported before November 2026).
	formPlain
)

// facts is what a game's start and end records bind.
type facts struct {
	start Start
	end   End
	old   bool // records of format 1
}

// readFacts reads the start record (the first) and the end record (the last).
func readFacts(x *store.Export) (*facts, error) {
	if len(x.Records) < 2 || x.Records[0].Kind != store.KindEvent {
		return nil, errors.New("the record does not begin with the game's setup")
	}
	s, err := parseStart(x.Records[0].Text)
	if err != nil {
		return nil, err
	}
	last := x.Records[len(x.Records)-1]
	if last.Kind != store.KindEvent {
		return nil, errors.New("the record does not end with the end of the game: it was cut short, or the game has not ended")
	}
	e, err := parseEnd(last.Text, s.Old)
	if err != nil {
		return nil, err
	}
	if s.Old && !e.Old {
		// Started under format 1, ended under format 2: the end record binds the
		// variant and the time control the start record did not name.
		s.Variant, s.Time = e.Variant, e.Time
	}
	return &facts{start: s, end: e, old: e.Old}, nil
}

// render writes a game that has ended as PGN with its proofs (docs/verify.md): the tags and
// move text, every secret move followed by a comment with its commitment and the key that
// opens it, and, in a final comment, the store's export of every record as hashed, so that
// Verify can check the file without the database or the key. Everything in the PGN is
// derived from the hashed records; Verify renders it again and refuses any difference.
// form is the PGN's form (formMarked, or formPlain for files written before it).
func render(x *store.Export, form pgnForm) ([]byte, error) {
	f, err := readFacts(x)
	if err != nil {
		return nil, fmt.Errorf("record: export: %w", err)
	}
	var b bytes.Buffer
	if f.old {
		err = writePGNv1(&b, x)
	} else {
		// The players are named as the end record names them (the store knows only
		// their display names, which may be empty or change later).
		named := *x
		named.Game.Players = f.end.Players
		x = &named
		err = writePGN(&b, x, f, form)
	}
	if err != nil {
		return nil, fmt.Errorf("record: export: %w", err)
	}
	data, err := json.Marshal(x)
	if err != nil {
		return nil, fmt.Errorf("record: export: %w", err)
	}
	b.WriteString("\n{" + store.ExportFormat + "\n")
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "}\n")
	return b.Bytes(), nil
}

// writePGN writes the PGN of a game whose records are of format 2: every tag, move and
// comment comes from the hashed records and the chain head, in the given form.
func writePGN(w io.Writer, x *store.Export, f *facts, form pgnForm) error {
	v, err := variants.Lookup(f.start.Variant)
	if err != nil {
		return err
	}
	sides := v.Sides()
	e := f.end
	event, round := fmt.Sprintf("bottlepost game %d", x.Game.ID), "-"
	if f.start.Event != "" {
		event, round = f.start.Event, f.start.Round // a tournament game's, bound by its start record
	}
	tags := []rules.Tag{
		{Name: "Event", Value: event},
		{Name: "Site", Value: "bottlepost"},
		{Name: "Date", Value: x.Records[0].At.UTC().Format("2006.01.02")},
		{Name: "Round", Value: round},
		{Name: "White", Value: e.Players[0]},
		{Name: "Black", Value: e.Players[1]},
		{Name: "Variant", Value: v.Name()},
		{Name: "VariantID", Value: e.Variant},
		{Name: "Ruleset", Value: e.Ruleset},
		{Name: "Sides", Value: sides[0] + "/" + sides[1]},
		{Name: "Termination", Value: e.Termination},
		{Name: "Status", Value: e.Status},
		{Name: "ChainHead", Value: x.Game.Head.String()},
		{Name: "Receipt", Value: store.Receipt{Records: x.Game.Records, Head: x.Game.Head}.String()},
	}
	switch {
	case form == formPlain:
		tags = append(tags, rules.Tag{Name: "TimeControl", Value: e.Time})
	case e.Time == "":
		tags = append(tags, rules.Tag{Name: "TimeControl", Value: "-"})
	default:
		// PGN's TimeControl counts seconds per session (standard 9.6.1); days per move
		// or per period have no form there: "?" there, the control in a tag of its own.
		tags = append(tags, rules.Tag{Name: "TimeControl", Value: "?"}, rules.Tag{Name: "TimeControlDays", Value: e.Time})
	}
	moves, err := pgnMoves(x, sides, false, form == formMarked)
	if err != nil {
		return err
	}
	return rules.WritePGN(w, tags, moves, e.Result)
}

// pgnMoves is the move text: each move as submitted, a secret move followed by the comment
// "secret move of SIDE, commitment C, opened with key K"; an event between the start and the
// end record becomes a comment after the move before it (or, for format 1, pending lists
// the events before the first move). With marked, a move has the marks its record adds
// (markedText). A move taken back (a takeback record) leaves the move text, which is the
// line that stands, and becomes the comment "White's 3. Bc4 taken back by consent" after the
// move before it (before the first move, for the first).
func pgnMoves(x *store.Export, sides [2]string, old, marked bool) ([]rules.PGNMove, error) {
	var moves []rules.PGNMove
	var standing []int // the records of the moves in moves
	lead := ""         // the takebacks of the first moves, before the first that stands
	for i, r := range x.Records {
		switch r.Kind {
		case store.KindTakeback:
			if len(standing) == 0 {
				return nil, fmt.Errorf("record %d: a takeback with no move to take back", i)
			}
			taken := x.Records[standing[len(standing)-1]]
			moves, standing = moves[:len(moves)-1], standing[:len(standing)-1]
			note := fmt.Sprintf("%s's %s %s taken back by consent", sides[r.Side], rules.MoveLabel(int(taken.Ply)), pgnToken(taken.Text))
			if len(moves) == 0 {
				lead = addComment(lead, note) // before the first move that stands
				continue
			}
			moves[len(moves)-1].Comment = addComment(moves[len(moves)-1].Comment, note)
		case store.KindMove:
			text := r.Text
			if marked {
				text = markedText(r)
			}
			m := rules.PGNMove{Text: pgnToken(text)}
			if r.Secret && r.Commitment != nil && r.Opening != nil {
				m.Comment = fmt.Sprintf("secret move of %s, commitment %s, opened with key %x", sides[r.Side], *r.Commitment, r.Opening.Key[:])
			}
			moves = append(moves, m)
			standing = append(standing, i)
		case store.KindEvent:
			if i == 0 || (!old && i == len(x.Records)-1) {
				continue // the start and end records: in the tags
			}
			if len(moves) == 0 {
				if old {
					continue // format 1 puts them in the Termination tag
				}
				return nil, fmt.Errorf("record %d: an event before the first move", i)
			}
			moves[len(moves)-1].Comment = addComment(moves[len(moves)-1].Comment, r.Text)
		}
	}
	if lead != "" {
		moves = append([]rules.PGNMove{{Comment: lead}}, moves...)
	}
	return moves, nil
}

// writePGNv1 writes the PGN of a game recorded in format 1, as the program of that format
// did, so that files it wrote still verify. Its players, status and time control come from
// the export's game fields, which no record binds.
func writePGNv1(w io.Writer, x *store.Export) error {
	v, err := variants.Lookup(x.Game.Variant)
	if err != nil {
		return err
	}
	result := x.Game.Result
	if result == "" {
		result = "*"
	}
	sides := v.Sides()
	tags := []rules.Tag{
		{Name: "Event", Value: fmt.Sprintf("bottlepost game %d", x.Game.ID)},
		{Name: "Site", Value: "bottlepost"},
		{Name: "Date", Value: x.Game.Created.UTC().Format("2006.01.02")},
		{Name: "Round", Value: "-"},
		{Name: "White", Value: x.Game.Players[0]},
		{Name: "Black", Value: x.Game.Players[1]},
		{Name: "Variant", Value: v.Name()},
		{Name: "VariantID", Value: v.ID()},
		{Name: "Ruleset", Value: x.Game.Ruleset},
		{Name: "Sides", Value: sides[0] + "/" + sides[1]},
		{Name: "TimeControl", Value: x.Game.TimeControl},
		{Name: "ChainHead", Value: x.Game.Head.String()},
	}
	moves, err := pgnMoves(x, sides, true, false)
	if err != nil {
		return err
	}
	var pending []string // events before the first move, the start record aside
	for i, r := range x.Records {
		if r.Kind == store.KindMove {
			break
		}
		if i > 0 {
			pending = append(pending, r.Text)
		}
	}
	if len(pending) > 0 {
		tags = append(tags, rules.Tag{Name: "Termination", Value: strings.Join(pending, "; ")})
	}
	return rules.WritePGN(w, tags, moves, result)
}

// marks is what a move's public record may add to the move as submitted: check (+),
// mate (#), the points a Baltic move scores (+N, B6).
var marks = regexp.MustCompile(`^(?:[+#]|\+[0-9]+)$`)

// markedText is a move as its record gives it: the move as submitted, with the marks its
// public record adds to it (check, mate, points), which the variant reads back. A secret
// move, or a record that adds more than marks (Seachess effects), gives the move as
// submitted.
func markedText(r store.ExportRecord) string {
	if rest, ok := strings.CutPrefix(r.Public, r.Text); ok && !r.Secret && marks.MatchString(rest) {
		return r.Public
	}
	return r.Text
}

// pgnToken keeps a move a single PGN token.
func pgnToken(s string) string { return strings.Join(strings.Fields(s), "") }

// addComment is a PGN comment with one more note after it ("; " between).
func addComment(comment, note string) string {
	return strings.TrimPrefix(strings.TrimSpace(comment+"; "+note), "; ")
}
