package record

// The start and end records of a game's log: what the hash chain binds about a game
// besides its moves. docs/verify.md specifies both; the game service writes them (Start.Text,
// End.Text) and Verify reads them back.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bottlepost/bottlepost/rules"
	"github.com/bottlepost/bottlepost/store"
)

// Start is what the start record (the log's first record) fixes: the variant, the
// ruleset, the seed of the rules' setup and the time control.
type Start struct {
	Variant, Ruleset, Time string
	Seed                   uint64
	// Event and Round name a tournament game's tournament and round (the
	// PGN tags Event and Round); "" for a game outside a tournament, whose
	// start record has no such fields.
	Event, Round string
	// Old marks a start record of format 1 ("start ruleset=R seed=N"), written before the
	// record named the variant and the time control.
	Old bool
}

// options are the rules' options the start record gives.
func (s Start) options() rules.Options { return rules.Options{Ruleset: s.Ruleset, Seed: s.Seed} }

// End is what the end record (the log's last record) fixes: how the game ended and who
// played it, under which terms.
type End struct {
	Result      string    // 1-0, 0-1, 1/2-1/2, or * for an aborted game
	Status      string    // finished or aborted (store.Status names)
	Termination string    // how it ended, e.g. "Black resigned"
	Players     [2]string // the names shown for White and Black
	Variant     string
	Ruleset     string
	Time        string
	// Old marks an end record of format 1 ("RESULT how it ended"): only the result and
	// the termination are bound.
	Old bool
}

var (
	startKeys = []string{"variant", "ruleset", "seed", "time"}
	// eventKeys are the start record's fields for a tournament game.
	eventKeys = []string{"variant", "ruleset", "seed", "time", "event", "round"}
	endKeys   = []string{"result", "status", "termination", "white", "black", "variant", "ruleset", "time"}
)

// Text is the start record's text: "start variant=V ruleset=R seed=N time=T", and for a
// tournament game " event=E round=R" after it.
func (s Start) Text() string {
	values := []string{s.Variant, s.Ruleset, strconv.FormatUint(s.Seed, 10), s.Time}
	if s.Event != "" {
		return "start " + encodeFields(eventKeys, append(values, s.Event, s.Round))
	}
	return "start " + encodeFields(startKeys, values)
}

// Text is the end record's text: "end result=… status=… termination=… white=… black=…
// variant=… ruleset=… time=…".
func (e End) Text() string {
	return "end " + encodeFields(endKeys, []string{e.Result, e.Status, e.Termination, e.Players[0], e.Players[1], e.Variant, e.Ruleset, e.Time})
}

// parseStart reads a start record, of either format.
func parseStart(text string) (Start, error) {
	if rest, ok := strings.CutPrefix(text, "start ruleset="); ok {
		// Format 1: "start ruleset=R seed=N", both values without spaces.
		ruleset, seed, ok := strings.Cut(rest, " seed=")
		n, err := strconv.ParseUint(seed, 10, 64)
		if !ok || err != nil || strings.ContainsAny(ruleset, " ") || "start ruleset="+ruleset+" seed="+strconv.FormatUint(n, 10) != text {
			return Start{}, fmt.Errorf("the start record %q is not in its format", text)
		}
		return Start{Ruleset: ruleset, Seed: n, Old: true}, nil
	}
	rest, ok := strings.CutPrefix(text, "start ")
	if !ok {
		return Start{}, fmt.Errorf("the first record %q is not a start record", text)
	}
	keys := startKeys
	if strings.Count(rest, " ") == len(eventKeys)-1 {
		keys = eventKeys // a tournament game's
	}
	v, err := decodeFields(rest, keys)
	if err != nil {
		return Start{}, fmt.Errorf("the start record: %w", err)
	}
	if len(v) == len(eventKeys) {
		if v[4] == "" {
			return Start{}, fmt.Errorf("the start record's event is empty")
		}
		n, err := strconv.ParseUint(v[2], 10, 64)
		if err != nil || strconv.FormatUint(n, 10) != v[2] {
			return Start{}, fmt.Errorf("the start record's seed %q is not a number", v[2])
		}
		return Start{Variant: v[0], Ruleset: v[1], Seed: n, Time: v[3], Event: v[4], Round: v[5]}, nil
	}
	n, err := strconv.ParseUint(v[2], 10, 64)
	if err != nil || strconv.FormatUint(n, 10) != v[2] {
		return Start{}, fmt.Errorf("the start record's seed %q is not a number", v[2])
	}
	return Start{Variant: v[0], Ruleset: v[1], Seed: n, Time: v[3]}, nil
}

// parseEnd reads an end record; old says the game's start record is of format 1, whose
// end record is "RESULT how it ended" if the game also ended under format 1, or of format 2
// if it was still being played when the service was upgraded.
func parseEnd(text string, old bool) (End, error) {
	if old && !strings.HasPrefix(text, "end ") {
		result, how, _ := strings.Cut(text, " ")
		if !validResult(result) {
			return End{}, fmt.Errorf("the last record %q does not begin with a result", text)
		}
		return End{Result: result, Termination: how, Old: true}, nil
	}
	rest, ok := strings.CutPrefix(text, "end ")
	if !ok {
		return End{}, fmt.Errorf("the last record %q is not an end record: the game has not ended", text)
	}
	v, err := decodeFields(rest, endKeys)
	if err != nil {
		return End{}, fmt.Errorf("the end record: %w", err)
	}
	e := End{Result: v[0], Status: v[1], Termination: v[2], Players: [2]string{v[3], v[4]}, Variant: v[5], Ruleset: v[6], Time: v[7]}
	if !validResult(e.Result) {
		return End{}, fmt.Errorf("the end record's result %q is not 1-0, 0-1, 1/2-1/2 or *", e.Result)
	}
	switch {
	case e.Status == store.StatusFinished.String() && e.Result != "*":
	case e.Status == store.StatusAborted.String() && e.Result == "*":
	default:
		return End{}, fmt.Errorf("the end record's status %q does not go with the result %q", e.Status, e.Result)
	}
	return e, nil
}

func validResult(r string) bool {
	switch r {
	case "1-0", "0-1", "1/2-1/2", "*":
		return true
	}
	return false
}

// encodeFields writes key=value pairs separated by single spaces, each value
// percent-encoded: every byte other than A–Z, a–z, 0–9 and - . _ ~ / + * : is written %XX
// (upper-case hex), so a value never holds a space or an =.
func encodeFields(keys, values []string) string {
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k)
		b.WriteByte('=')
		for _, c := range []byte(values[i]) {
			if plainByte(c) {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		}
	}
	return b.String()
}

func plainByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~/+*:", c) >= 0
}

// decodeFields reads what encodeFields wrote with exactly these keys, in this order, and
// refuses any other spelling of it (the text has one encoding).
func decodeFields(s string, keys []string) ([]string, error) {
	parts := strings.Split(s, " ")
	if len(parts) != len(keys) {
		return nil, fmt.Errorf("%d fields, want %d (%s)", len(parts), len(keys), strings.Join(keys, ", "))
	}
	values := make([]string, len(keys))
	for i, p := range parts {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k != keys[i] {
			return nil, fmt.Errorf("field %d is %q, want %s=…", i+1, p, keys[i])
		}
		var b []byte
		for j := 0; j < len(v); j++ {
			c := v[j]
			switch {
			case c == '%' && j+2 < len(v) && isUpperHex(v[j+1]) && isUpperHex(v[j+2]):
				n, _ := strconv.ParseUint(v[j+1:j+3], 16, 8)
				if plainByte(byte(n)) {
					return nil, fmt.Errorf("field %s: %s need not be escaped", k, v[j:j+3])
				}
				b = append(b, byte(n))
				j += 2
			case plainByte(c):
				b = append(b, c)
			default:
				return nil, fmt.Errorf("field %s: byte %q must be escaped", k, c)
			}
		}
		values[i] = string(b)
	}
	return values, nil
}

func isUpperHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }
