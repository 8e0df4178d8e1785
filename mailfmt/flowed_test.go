package mailfmt

import (
	"strings"
	"testing"
)

func TestDecodeFlowed(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		delSp bool
		want  string
	}{
		{"fixed lines unchanged", "e4\ne5\n", false, "e4\ne5\n"},
		{"flowed line joins the next", "a long \nline\n", false, "a long line\n"},
		{"three lines one paragraph", "one \ntwo \nthree\nfour\n", false, "one two three\nfour\n"},
		{"delsp removes the soft space", "posit \nion\n", true, "position\n"},
		{"delsp keeps a real space", "we are  \nin sync\n", true, "we are in sync\n"},
		{"without delsp the space stays", "posit \nion\n", false, "posit ion\n"},
		{"space-stuffing removed", " From here\n >not a quote\n  indented\n", false, "From here\n>not a quote\n indented\n"},
		{"quoted paragraph joined", "> quoted \n> text\nreply\n", false, "> quoted text\nreply\n"},
		{"quote depth kept", ">> deep \n>> er\n> shallow\n", true, ">> deeper\n> shallow\n"},
		{"stuffing after quote marks", ">  two spaces\n", false, ">  two spaces\n"},
		{"depth change ends a paragraph", "> flowed \nunquoted\n", false, "> flowed \nunquoted\n"},
		{"signature separator is fixed", "text\n-- \nAlice\n", false, "text\n-- \nAlice\n"},
		{"quoted signature separator is fixed", "> -- \n> sig\n", true, "> -- \n> sig\n"},
		{"flowed last line", "end \n", false, "end "},
		{"flowed before an empty line", "para \n\nnext\n", false, "para \nnext\n"},
		{"empty", "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := decodeFlowed(tt.in, tt.delSp); got != tt.want {
				t.Errorf("decodeFlowed(%q, %v) = %q, want %q", tt.in, tt.delSp, got, tt.want)
			}
		})
	}
}

// encodeFlowed is a test-only RFC 3676 encoder: it wraps each line of text
// at width (breaking after a space, or anywhere with delSp), marks soft
// breaks with a trailing space, and space-stuffs. text must not have lines
// ending in a space (section 4.2 has the generator strip those).
func encodeFlowed(text string, width int, delSp bool) string {
	if width < 1 {
		width = 1
	}
	var out []string
	for _, line := range strings.Split(text, "\n") {
		chunks := splitFlowed(line, width, delSp)
		for i, c := range chunks {
			if i < len(chunks)-1 && delSp {
				c += " "
			}
			if strings.HasPrefix(c, " ") || strings.HasPrefix(c, ">") || strings.HasPrefix(c, "From ") {
				c = " " + c
			}
			out = append(out, c)
		}
	}
	return strings.Join(out, "\n")
}

// splitFlowed cuts line into chunks of about width bytes (at rune
// boundaries). Without delSp each chunk but the last ends in a space; no
// chunk but the last may be "-- ", which would read as a signature
// separator.
func splitFlowed(line string, width int, delSp bool) []string {
	var chunks []string
	rest := line
	for len(rest) > width {
		cut := -1
		if delSp {
			cut = width
			for cut < len(rest) && !isRuneStart(rest[cut]) {
				cut++
			}
		} else {
			for i := width; i < len(rest); i++ {
				if rest[i-1] == ' ' {
					cut = i
					break
				}
			}
		}
		if cut <= 0 || cut >= len(rest) {
			break
		}
		chunk := rest[:cut]
		if chunk == "-- " || (delSp && chunk == "--") {
			break
		}
		chunks = append(chunks, chunk)
		rest = rest[cut:]
	}
	return append(chunks, rest)
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

func TestFlowedRoundTrip(t *testing.T) {
	texts := []string{
		"Nf3\n\nI'd also like to offer a draw after that, if you agree: the position looks level.",
		">not a quote\n From with a space\nFrom the start",
		"-- not a signature\nthe end",
		"a  double  spaced   line with\ttabs",
		"Königsgambit — ein sehr langes deutsches Wort: Donaudampfschifffahrtsgesellschaftskapitän",
	}
	for _, text := range texts {
		for _, delSp := range []bool{false, true} {
			for _, width := range []int{1, 5, 20, 78} {
				enc := encodeFlowed(text, width, delSp)
				if got := decodeFlowed(enc, delSp); got != text {
					t.Errorf("width %d delSp %v: decode(encode(%q)) = %q\nencoded: %q", width, delSp, text, got, enc)
				}
			}
		}
	}
}
