package game

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bottlepost/bottlepost/lang"
	"github.com/bottlepost/bottlepost/rules/variants"
)

func TestHelp(t *testing.T) {
	tests := []struct {
		name, line, subject string
		contains            []string
	}{
		{"commands", "help", "bottlepost: help", []string{"new"}},
		{"a variant", "help seachess", "bottlepost: help Seachess", []string{"S1"}},
		{"a variant in any case", "HELP Chess", "bottlepost: help Chess", nil},
		{"an unknown variant", "help nosuchgame", "", []string{"nosuchgame"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			pa := f.personal(alice)
			f.send(alice, pa, "help", tt.line)
			m := f.last(alice)
			if tt.subject != "" && m.Subject != tt.subject {
				t.Errorf("subject %q, want %q", m.Subject, tt.subject)
			}
			for _, s := range tt.contains {
				if !strings.Contains(m.Text, s) {
					t.Errorf("the answer to %q lacks %q:\n%s", tt.line, s, m.Text)
				}
			}
		})
	}
}

// TestHelpCommands: help lists the commands between opponents, and help
// COMMAND explains each.
func TestHelpCommands(t *testing.T) {
	f := newFixture(t, Config{})
	pa := f.personal(alice)
	f.send(alice, pa, "help", "help")
	f.mustContain(f.last(alice), "takeback", "say TEXT", "messages off / on", "name NAME")
	for _, tt := range []struct{ line, want string }{
		{"help say", "Passes TEXT to your opponent"},
		{"help messages", "messages off: your opponents' words"},
		{"help name", "name Alice Liddell sets the name"},
		{"help takeback", "takeback asks your opponent to let you take back"},
		{"help address", "Moves your account"},
	} {
		f.send(alice, pa, "help", tt.line)
		if m := f.last(alice); m.Subject != "bottlepost: "+tt.line {
			t.Errorf("%s: subject %q", tt.line, m.Subject)
		}
		f.mustContain(f.last(alice), tt.want)
	}
}

// helpTopics are every help answer: the commands, each help COMMAND,
// help ratings and help tournaments, and each variant's summary.
func helpTopics() []string {
	topics := []string{"help", "help ratings", "help tournaments"}
	for verb := range commandHelp {
		topics = append(topics, "help "+string(verb))
	}
	for _, id := range variants.IDs {
		topics = append(topics, "help "+id)
	}
	slices.Sort(topics)
	return topics
}

// TestHelpInEveryLanguage: every help answer is written in every language
// (the service's language set to it): not empty, the subject the same in
// each (it names the command), every line within 78 columns, every
// message from the catalog; in German most of the answer's lines differ
// from the English (the commands and the moves in it stay as they are).
func TestHelpInEveryLanguage(t *testing.T) {
	for _, topic := range helpTopics() {
		t.Run(topic, func(t *testing.T) {
			answers := map[lang.Lang]*sent{}
			for _, lg := range lang.All {
				f := newFixture(t, Config{Language: lg})
				f.send(alice, f.personal(alice), "help", topic)
				m := f.last(alice)
				if body := strings.TrimSpace(strings.Split(m.Text, "\n--\n")[0]); body == "" {
					t.Fatalf("%s: the answer is empty", lg)
				}
				if !strings.Contains(m.HTML, `lang="`+string(lg)+`"`) {
					t.Errorf("%s: the HTML part does not name its language", lg)
				}
				within78(t, string(lg), m)
				answers[lg] = m
			}
			en := answers[lang.English]
			for lg, m := range answers {
				if lg == lang.English {
					continue
				}
				if m.Subject != en.Subject {
					t.Errorf("%s: subject %q, in English %q", lg, m.Subject, en.Subject)
				}
				english := map[string]bool{}
				for _, line := range strings.Split(en.Text, "\n") {
					english[strings.TrimSpace(line)] = true
				}
				lines, same := 0, 0
				for _, line := range strings.Split(m.Text, "\n") {
					if line = strings.TrimSpace(line); line != "" {
						lines++
						if english[line] {
							same++
						}
					}
				}
				if 2*same > lines {
					t.Errorf("%s: %d of the answer's %d lines are the English ones:\n%s", lg, same, lines, m.Text)
				}
			}
			noMisses(t)
		})
	}
}

// TestHelpNamesTheLanguageCommand: help lists language de|en and help
// settings says that settings lists the language, in every language; a
// variant help cannot find is refused in the reader's language.
func TestHelpNamesTheLanguageCommand(t *testing.T) {
	tests := []struct {
		name string
		lg   lang.Lang
		line string
		want []string
	}{
		{"help, English", lang.English, "help", []string{"language de|en", "your mails in German (Deutsch) or English", "name, address, language, ratings"}},
		{"help, German", lang.German, "help", []string{"language de|en", "Ihre Mails auf Deutsch oder Englisch", "name, address, language, ratings"}},
		{"help settings, English", lang.English, "help settings", []string{"your name, language, board format"}},
		{"help settings, German", lang.German, "help settings", []string{"Ihren Namen, die Sprache, das Brettformat"}},
		{"help language, English", lang.English, "help language", []string{"language de writes your mails in German"}},
		{"help language, German", lang.German, "help language", []string{"language de schreibt Ihre Mails von nun an auf Deutsch"}},
		{"an unknown variant, English", lang.English, "help nosuchgame", []string{`unknown variant "nosuchgame" (known: chess, seachess,`}},
		{"an unknown variant, German", lang.German, "help nosuchgame", []string{`unbekannte Variante "nosuchgame" (bekannt: chess, seachess,`}},
		{"too many words, German", lang.German, "help chess now", []string{"help nimmt höchstens den Namen einer Variante"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{Language: tt.lg})
			f.send(alice, f.personal(alice), "help", tt.line)
			f.mustContain(f.last(alice), tt.want...)
			noMisses(t)
		})
	}
}

// rulingRE finds the ruling numbers a summary cites: S8.3, B4.4, C1.1,
// T5, M7, and the FIDE Laws' articles (3.7.3.1).
var rulingRE = regexp.MustCompile(`\b(?:[A-Z]\d+(?:\.\d+)*|\d+\.\d+(?:\.\d+)*)\b`)

// TestVariantSummaryInEveryLanguage: each variant's summary (help
// VARIANT, the invitation) in every language keeps the shape
// rules.Variant.Help promises (at most 40 lines of at most 72
// characters) and cites every ruling number its English cites.
func TestVariantSummaryInEveryLanguage(t *testing.T) {
	for _, v := range variants.All() {
		for _, lg := range lang.All {
			t.Run(v.ID()+"/"+string(lg), func(t *testing.T) {
				text := variantHelpIn(v, lg)
				lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
				if len(lines) > 40 {
					t.Errorf("%d lines, at most 40", len(lines))
				}
				for i, l := range lines {
					if n := utf8.RuneCountInString(l); n > 72 {
						t.Errorf("line %d has %d characters: %q", i+1, n, l)
					}
				}
				for _, r := range rulingRE.FindAllString(v.Help(), -1) {
					if !regexp.MustCompile(`\b` + regexp.QuoteMeta(r) + `\b`).MatchString(text) {
						t.Errorf("ruling %s of the English is not cited", r)
					}
				}
				if lg != lang.English && text == v.Help() {
					t.Errorf("the summary is the English one")
				}
				noMisses(t)
			})
		}
	}
}
