// Package templates holds the text/template and html/template files of every
// mail bottlepost sends, embedded into the binary. Each kind of mail NAME
// (welcome, help, invitation, challenge, update, history, final, games,
// ratings, audit, notice) has NAME.txt, the text part, and NAME.html, the
// HTML part; _common.txt and _layout.html hold what the text and the HTML
// mails share (notices, the footer with the receipt, the head, the board),
// _ratings.txt and _ratings.html the lines about a game's ratings. The game
// service fills them (game/mailjob.go): the board comes drawn, as text
// (Board) and as an HTML table (BoardHTML, rules/htmlboard), which the HTML
// part shows, or a <pre> of the text board when a mail must stay small.
package templates

import (
	"embed"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"

	"github.com/bottlepost/bottlepost/lang"
)

//go:embed *.txt *.html
var files embed.FS

// funcs are the templates' functions in a language: t writes a message of
// the language's catalog ({{t "Your move." }}, {{t "%d games" .N}}).
func funcs(l lang.Lang) map[string]any {
	return map[string]any{
		"join":  strings.Join,
		"lines": func(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") },
		"t":     l.Tr,
	}
}

var (
	texts = map[lang.Lang]*texttemplate.Template{}
	htmls = map[lang.Lang]*htmltemplate.Template{}
)

func init() {
	for _, l := range lang.All {
		texts[l] = texttemplate.Must(texttemplate.New("").Funcs(funcs(l)).ParseFS(files, "*.txt"))
		htmls[l] = htmltemplate.Must(htmltemplate.New("").Funcs(funcs(l)).ParseFS(files, "*.html"))
	}
}

// Text is the set of text templates in a language, one per kind
// ("update.txt", …); the default language's for one not known.
func Text(l lang.Lang) *texttemplate.Template {
	if t, ok := texts[l]; ok {
		return t
	}
	return texts[lang.Default]
}

// HTML is the set of HTML templates in a language, one per kind
// ("update.html", …).
func HTML(l lang.Lang) *htmltemplate.Template {
	if t, ok := htmls[l]; ok {
		return t
	}
	return htmls[lang.Default]
}
