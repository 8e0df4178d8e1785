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
)

//go:embed *.txt *.html
var files embed.FS

var funcs = map[string]any{
	"join":  strings.Join,
	"lines": func(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") },
}

// Text is the set of text templates, one per kind ("update.txt", …).
var Text = texttemplate.Must(texttemplate.New("").Funcs(funcs).ParseFS(files, "*.txt"))

// HTML is the set of HTML templates, one per kind ("update.html", …).
var HTML = htmltemplate.Must(htmltemplate.New("").Funcs(funcs).ParseFS(files, "*.html"))
