package record

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// pgnDifference names the first difference between a file and the one the verified record
// gives: a tag, a move, a comment, the result, or the embedded block's encoding.
func pgnDifference(got, want string) error {
	gi, wi := strings.Index(got, string(blockStart)), strings.Index(want, string(blockStart))
	gp, wp := got[:max(gi, 0)], want[:max(wi, 0)]
	if gp == wp {
		return errors.New("the embedded record is not in the one form bottlepost writes (its JSON or base64 was re-encoded or changed)")
	}
	gt, gm := splitPGN(gp)
	wt, wm := splitPGN(wp)
	for _, t := range wt {
		v, ok := tagValue(gt, t.name)
		switch {
		case !ok:
			return fmt.Errorf("the PGN has no %s tag; the record gives %q", t.name, t.value)
		case v != t.value:
			return fmt.Errorf("the PGN tag %s is %q, but the record gives %q", t.name, v, t.value)
		}
	}
	for _, t := range gt {
		if _, ok := tagValue(wt, t.name); !ok {
			return fmt.Errorf("the PGN has a tag %s that the record does not give", t.name)
		}
	}
	if !slices.Equal(gt, wt) {
		return errors.New("the PGN's tags are repeated or not in the order bottlepost writes them")
	}
	move := "the start"
	for i := 0; i < max(len(gm), len(wm)); i++ {
		var g, w string
		if i < len(gm) {
			g = gm[i]
		}
		if i < len(wm) {
			w = wm[i]
		}
		if g == w {
			if !strings.HasPrefix(w, "{") && !pgnNumber.MatchString(w) {
				move = "move " + w
			}
			continue
		}
		switch {
		case strings.HasPrefix(w, "{") || strings.HasPrefix(g, "{"):
			return fmt.Errorf("the comment after %s is %q, but the record gives %q", move, g, w)
		case i == len(wm)-1 || i == len(gm)-1:
			return fmt.Errorf("the PGN's move text ends %q, but the record gives %q", g, w)
		case pgnNumber.MatchString(w):
			return fmt.Errorf("after %s the PGN has %q, but the record gives the move number %q", move, g, w)
		}
		return fmt.Errorf("after %s the PGN has the move %q, but the record gives %q", move, g, w)
	}
	return errors.New("the PGN's spacing or line breaks are not the ones bottlepost writes")
}

var (
	tagLine   = regexp.MustCompile(`^\[([A-Za-z0-9_]+) "((?:[^"\\]|\\.)*)"\]$`)
	pgnNumber = regexp.MustCompile(`^\d+\.(\.\.)?$`)
)

type pgnTag struct{ name, value string }

func tagValue(tags []pgnTag, name string) (string, bool) {
	for _, t := range tags {
		if t.name == name {
			return t.value, true
		}
	}
	return "", false
}

// splitPGN reads PGN text as tags (in order) and move-text tokens, a comment being one
// token with its braces.
func splitPGN(s string) ([]pgnTag, []string) {
	var tags []pgnTag
	var body strings.Builder
	for line := range strings.Lines(s) {
		line = strings.TrimRight(line, "\n")
		if m := tagLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			v := strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[2])
			tags = append(tags, pgnTag{m[1], v})
			continue
		}
		body.WriteString(line + "\n")
	}
	var toks []string
	rest := body.String()
	for {
		rest = strings.TrimLeft(rest, " \t\n")
		if rest == "" {
			return tags, toks
		}
		if rest[0] == '{' {
			n := strings.IndexByte(rest, '}')
			if n < 0 {
				n = len(rest) - 1
			}
			toks = append(toks, strings.Join(strings.Fields(rest[:n+1]), " "))
			rest = rest[n+1:]
			continue
		}
		n := strings.IndexAny(rest, " \t\n{")
		if n < 0 {
			n = len(rest)
		}
		toks = append(toks, rest[:n])
		rest = rest[n:]
	}
}
