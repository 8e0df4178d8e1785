package game

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/rules/variants"
	"github.com/bottlepost/bottlepost/store"
)

// startPrefix opens the event record that fixes a game's setup on the
// chain, so that a verifier can replay it: "start ruleset=R seed=N".
const startPrefix = "start "

func startText(ruleset string, seed uint64) string {
	return fmt.Sprintf("%sruleset=%s seed=%d", startPrefix, ruleset, seed)
}

func parseStart(text string) (rules.Options, bool) {
	rest, ok := strings.CutPrefix(text, startPrefix)
	if !ok {
		return rules.Options{}, false
	}
	var opt rules.Options
	for _, f := range strings.Fields(rest) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "ruleset":
			opt.Ruleset = v
		case "seed":
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return rules.Options{}, false
			}
			opt.Seed = n
		}
	}
	return opt, true
}

// Export writes a finished game as PGN: the usual tags plus Variant,
// Ruleset and ChainHead; the moves as submitted, each secret move revealed
// with its commitment and opening key in a comment; and, in a final
// comment, the store's complete export (every record as hashed), so that
// Verify can check the file without the database or the key.
func Export(w io.Writer, x *store.Export) error {
	v, err := variants.Lookup(x.Game.Variant)
	if err != nil {
		return fmt.Errorf("game: export: %w", err)
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
	var moves []rules.PGNMove
	var pending []string // events before the first move
	for _, r := range x.Records {
		switch r.Kind {
		case store.KindMove:
			m := rules.PGNMove{Text: pgnToken(r.Text)}
			if r.Secret && r.Commitment != nil && r.Opening != nil {
				m.Comment = fmt.Sprintf("secret move of %s, commitment %s, opened with key %x", sides[r.Side], *r.Commitment, r.Opening.Key[:])
			}
			moves = append(moves, m)
		case store.KindEvent:
			if strings.HasPrefix(r.Text, startPrefix) {
				continue
			}
			if len(moves) == 0 {
				pending = append(pending, r.Text)
				continue
			}
			last := &moves[len(moves)-1]
			last.Comment = strings.TrimSpace(last.Comment + "; " + r.Text)
			last.Comment = strings.TrimPrefix(last.Comment, "; ")
		}
	}
	if len(pending) > 0 {
		tags = append(tags, rules.Tag{Name: "Termination", Value: strings.Join(pending, "; ")})
	}
	var b bytes.Buffer
	if err := rules.WritePGN(&b, tags, moves, result); err != nil {
		return fmt.Errorf("game: export: %w", err)
	}
	data, err := json.Marshal(x)
	if err != nil {
		return err
	}
	b.WriteString("\n{" + store.ExportFormat + "\n")
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "}\n")
	_, err = w.Write(b.Bytes())
	return err
}

// pgnToken keeps a move a single PGN token.
func pgnToken(s string) string { return strings.Join(strings.Fields(s), "") }

// Verification is the outcome of Verify: what was checked.
type Verification struct {
	Game    uint64
	Variant string
	Moves   int
	Secret  int
	Head    string
	Result  string
	Checks  []string // one line per check that passed
}

var embedded = regexp.MustCompile(`\{` + regexp.QuoteMeta(store.ExportFormat) + `\s+([A-Za-z0-9+/=\s]+)\}`)

// Verify checks an exported game (Export's PGN, or the store's export as
// JSON) without the database or the key: the hash chain is intact and
// matches its head; every commitment to a secret move opens to the move
// revealed; every move is legal when the game is replayed from its start;
// and the PGN's moves are the records' moves. receipts are chain heads a
// player kept from the mails ("records:head"), checked too.
func Verify(r io.Reader, receipts ...store.Receipt) (*Verification, error) {
	data, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return nil, fmt.Errorf("game: verify: %w", err)
	}
	var x store.Export
	pgn := ""
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' && !bytes.HasPrefix(t, []byte("{"+store.ExportFormat)) {
		if err := json.Unmarshal(t, &x); err != nil {
			return nil, fmt.Errorf("game: verify: not an exported game: %w", err)
		}
	} else {
		m := embedded.FindSubmatchIndex(data)
		if m == nil {
			return nil, errors.New("game: verify: no " + store.ExportFormat + " block in the file: was it written by bottlepost export?")
		}
		raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(data[m[2]:m[3]])), ""))
		if err != nil {
			return nil, fmt.Errorf("game: verify: the export block is damaged: %w", err)
		}
		if err := json.Unmarshal(raw, &x); err != nil {
			return nil, fmt.Errorf("game: verify: the export block is damaged: %w", err)
		}
		pgn = string(data[:m[0]])
	}
	res := &Verification{Game: x.Game.ID, Variant: x.Game.Variant, Head: x.Game.Head.String(), Result: x.Game.Result}
	if err := store.VerifyExport(&x, receipts...); err != nil {
		return res, fmt.Errorf("game: verify: %w", err)
	}
	res.Checks = append(res.Checks, fmt.Sprintf("hash chain of %d records intact, head %s", len(x.Records), x.Game.Head))
	v, err := variants.Lookup(x.Game.Variant)
	if err != nil {
		return res, fmt.Errorf("game: verify: %w", err)
	}
	var opt rules.Options
	started := false
	var texts []string
	for _, rec := range x.Records {
		switch {
		case rec.Kind == store.KindEvent && !started:
			opt, started = parseStart(rec.Text)
		case rec.Kind == store.KindMove:
			texts = append(texts, rec.Text)
			if rec.Secret {
				res.Secret++
			}
		}
	}
	if !started {
		return res, errors.New("game: verify: the record does not begin with the game's setup")
	}
	if res.Secret > 0 {
		res.Checks = append(res.Checks, fmt.Sprintf("%d commitments to secret moves open to the moves revealed", res.Secret))
	}
	final, plies, err := Replay(v, opt, texts)
	if err != nil {
		return res, fmt.Errorf("game: verify: %w", err)
	}
	res.Moves = len(plies)
	if n := len(plies); n > 0 && plies[n-1].Err != nil {
		p := plies[n-1]
		return res, fmt.Errorf("game: verify: move %d (%s) is not legal: %w", p.Index+1, p.Text, p.Err)
	}
	res.Checks = append(res.Checks, fmt.Sprintf("all %d moves legal on replay from the start", len(plies)))
	if o := final.Outcome(); o.Over() && o.Result() != x.Game.Result {
		return res, fmt.Errorf("game: verify: the moves end in %s (%s), but the recorded result is %q", o.Result(), o.Reason, x.Game.Result)
	}
	if pgn != "" {
		got := pgnMoves(pgn)
		want := make([]string, len(texts))
		for i, t := range texts {
			want[i] = pgnToken(t)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			return res, fmt.Errorf("game: verify: the PGN's moves (%s) are not the recorded moves (%s)", strings.Join(got, " "), strings.Join(want, " "))
		}
		res.Checks = append(res.Checks, "the PGN's moves are the recorded moves")
	}
	return res, nil
}

var (
	pgnComment = regexp.MustCompile(`\{[^}]*\}`)
	pgnTag     = regexp.MustCompile(`(?m)^\[.*\]\s*$`)
	pgnNumber  = regexp.MustCompile(`^\d+\.(\.\.)?$`)
)

// pgnMoves extracts the move tokens of PGN movetext.
func pgnMoves(pgn string) []string {
	body := pgnComment.ReplaceAllString(pgnTag.ReplaceAllString(pgn, ""), " ")
	var out []string
	for _, t := range strings.Fields(body) {
		switch {
		case pgnNumber.MatchString(t), t == "1-0", t == "0-1", t == "1/2-1/2", t == "*":
		default:
			out = append(out, t)
		}
	}
	return out
}
