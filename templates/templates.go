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
	"fmt"
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

// htmlFuncs are the HTML templates' functions in a language: as funcs, but
// t's message is HTML, as the template's own text is (it may hold markup,
// "Write <code>help</code> for the commands.", and is written as it
// stands), and only its arguments are escaped, as {{.X}} escapes them; an
// argument that is already HTML (template.HTML) is written as it stands.
func htmlFuncs(l lang.Lang) map[string]any {
	f := funcs(l)
	f["t"] = func(format string, args ...any) htmltemplate.HTML {
		esc := make([]any, len(args))
		for i, a := range args {
			switch a := a.(type) {
			case htmltemplate.HTML:
				esc[i] = string(a)
			case lang.Text:
				esc[i] = escapeHTML(a.In(l))
			case string:
				esc[i] = escapeHTML(a)
			case fmt.Stringer:
				esc[i] = escapeHTML(a.String())
			default:
				esc[i] = a
			}
		}
		return htmltemplate.HTML(l.Tr(format, esc...))
	}
	// code is a text set as code, an argument of t: {{t "Write to %s." (code .Personal)}}.
	f["code"] = func(s string) htmltemplate.HTML { return htmltemplate.HTML("<code>" + escapeHTML(s) + "</code>") }
	return f
}

// escapeHTML escapes a text as html/template escapes a value in an
// element's text (its "+" too).
func escapeHTML(s string) string {
	return strings.ReplaceAll(htmltemplate.HTMLEscapeString(s), "+", "&#43;")
}

var (
	texts = map[lang.Lang]*texttemplate.Template{}
	htmls = map[lang.Lang]*htmltemplate.Template{}
)

func init() {
	for _, l := range lang.All {
		texts[l] = texttemplate.Must(texttemplate.New("").Funcs(funcs(l)).ParseFS(files, "*.txt"))
		htmls[l] = htmltemplate.Must(htmltemplate.New("").Funcs(htmlFuncs(l)).ParseFS(files, "*.html"))
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
