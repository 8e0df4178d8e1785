package rules

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Tag is a PGN tag pair, such as {"White", "Ann"}.
type Tag struct {
	Name, Value string
}

// PGNMove is one move of a game record: its text (SAN for chess; any
// variant's own notation) and an optional comment written after it; with
// no text, a comment alone (before the first move, say).
type PGNMove struct {
	Text, Comment string
}

// sevenTags is PGN's Seven Tag Roster with the value used when a tag is
// not given (PGN standard 8.1.1).
var sevenTags = []Tag{
	{"Event", "?"}, {"Site", "?"}, {"Date", "????.??.??"}, {"Round", "?"},
	{"White", "?"}, {"Black", "?"}, {"Result", "*"},
}

// MaxPGNLine is the longest line WritePGN writes: PGN export format keeps
// every line within 80 columns.
const MaxPGNLine = 79

// WritePGN writes a game in PGN export format: the Seven Tag Roster first
// in its order (missing ones as "?"), then the other tags in ASCII order of
// their names, a blank line, the numbered moves with their comments in
// braces, wrapped at MaxPGNLine characters, and the result ("1-0", "0-1",
// "1/2-1/2" or "*"), which also becomes the Result tag. It knows nothing of
// chess beyond move numbering: a game that starts from a position is
// numbered from the fullmove number and side of its FEN tag, when that tag
// holds a FEN-like text ("… w|b … N"). Other variants pass their own texts
// (and a Variant tag). Tag names must be letters, digits and underscores.
func WritePGN(w io.Writer, tags []Tag, moves []PGNMove, result string) error {
	switch result {
	case "1-0", "0-1", "1/2-1/2", "*":
	default:
		return fmt.Errorf("rules: PGN result %q is not 1-0, 0-1, 1/2-1/2 or *", result)
	}
	values := map[string]string{}
	var others []Tag
	for _, t := range tags {
		if !validTagName(t.Name) {
			return fmt.Errorf("rules: PGN tag name %q: want letters, digits and underscores", t.Name)
		}
		if _, dup := values[t.Name]; dup {
			return fmt.Errorf("rules: PGN tag %s given twice", t.Name)
		}
		values[t.Name] = t.Value
		if !isSevenTag(t.Name) {
			others = append(others, t)
		}
	}
	values["Result"] = result
	sort.Slice(others, func(i, j int) bool { return others[i].Name < others[j].Name })
	bw := bufio.NewWriter(w)
	for _, t := range sevenTags {
		v, ok := values[t.Name]
		if !ok || v == "" {
			v = t.Value
		}
		writeTag(bw, t.Name, v)
	}
	for _, t := range others {
		writeTag(bw, t.Name, t.Value)
	}
	bw.WriteString("\n")

	number, black := startNumber(values["FEN"])
	var tokens []string
	needNumber := true
	for _, m := range moves {
		text := strings.Join(strings.Fields(m.Text), "")
		if text == "" && m.Comment != "" {
			// A comment alone, before the move text (e.g. of a move taken back).
			if c := commentTokens(m.Comment); len(c) > 0 {
				tokens = append(tokens, c...)
				needNumber = true
			}
			continue
		}
		if text == "" {
			return fmt.Errorf("rules: PGN move %d has no text", len(tokens)+1)
		}
		switch {
		case !black:
			tokens = append(tokens, strconv.Itoa(number)+".")
		case needNumber:
			tokens = append(tokens, strconv.Itoa(number)+"...")
		}
		tokens = append(tokens, text)
		needNumber = false
		if c := commentTokens(m.Comment); len(c) > 0 {
			tokens = append(tokens, c...)
			needNumber = true
		}
		if black {
			number++
		}
		black = !black
	}
	tokens = append(tokens, result)
	line := ""
	for _, tok := range tokens {
		if line != "" && len(line)+1+len(tok) > MaxPGNLine {
			bw.WriteString(line + "\n")
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += tok
	}
	bw.WriteString(line + "\n\n")
	return bw.Flush()
}

func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

func isSevenTag(name string) bool {
	for _, t := range sevenTags {
		if t.Name == name {
			return true
		}
	}
	return false
}

func writeTag(w *bufio.Writer, name, value string) {
	value = strings.Join(strings.Fields(value), " ")
	value = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(value)
	fmt.Fprintf(w, "[%s \"%s\"]\n", name, value)
}

// startNumber reads the first move's number and side from a FEN-like text
// ("… b … 12": Black to move at move 12); 1 and White otherwise.
func startNumber(fen string) (number int, black bool) {
	f := strings.Fields(fen)
	if len(f) < 2 || (f[1] != "w" && f[1] != "b") {
		return 1, false
	}
	number = 1
	if len(f) >= 6 {
		if n, err := strconv.Atoi(f[len(f)-1]); err == nil && n >= 1 {
			number = n
		}
	}
	return number, f[1] == "b"
}

// commentTokens are a comment's words as PGN move text tokens, braced
// ({ and } within it made parentheses); none for an empty comment.
func commentTokens(comment string) []string {
	c := strings.Fields(strings.NewReplacer("{", "(", "}", ")").Replace(comment))
	if len(c) > 0 {
		c[0] = "{" + c[0]
		c[len(c)-1] += "}"
	}
	return c
}
