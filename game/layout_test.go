package game

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWrapText(t *testing.T) {
	long := strings.Repeat("word ", 30)
	tests := []struct {
		name, in string
		want     []string
	}{
		{"short lines stay", "a b\n\n  c", []string{"a b", "", "  c"}},
		{"a sentence", strings.TrimSpace(long), []string{
			strings.TrimSpace(strings.Repeat("word ", 15)),
			strings.TrimSpace(strings.Repeat("word ", 15))}},
		{"a list item", "- " + strings.TrimSpace(long), []string{
			"- " + strings.TrimSpace(strings.Repeat("word ", 15)),
			"  " + strings.TrimSpace(strings.Repeat("word ", 15))}},
		{"an indented line", "    " + strings.TrimSpace(long), []string{
			"    " + strings.TrimSpace(strings.Repeat("word ", 15)),
			"    " + strings.TrimSpace(strings.Repeat("word ", 15))}},
		{"a word longer than a line", "see " + strings.Repeat("x", 100), []string{
			"see", strings.Repeat("x", 78), strings.Repeat("x", 22)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wrapText(tt.in)
			if got != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", got, strings.Join(tt.want, "\n"))
			}
			for _, l := range strings.Split(got, "\n") {
				if utf8.RuneCountInString(l) > textWidth {
					t.Errorf("line longer than %d: %q", textWidth, l)
				}
			}
		})
	}
}
