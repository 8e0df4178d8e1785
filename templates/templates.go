// Package templates holds the text/template and html/template files of every
// mail bottlepost sends, embedded into the binary. Each kind of mail NAME has
// NAME.txt (the text part) and NAME.html (the HTML part, with the board in a
// monospace <pre>); _layout.html holds the parts the HTML mails share.
package templates

import (
	"embed"
	htmltemplate "html/template"
	"strings"
	texttemplate "text/template"
)

//go:embed *.txt *.html
var files embed.FS

// Kinds lists every kind of mail, each with a .txt and a .html template.
var Kinds = []string{"welcome", "help", "invitation", "challenge", "update", "history", "final", "games", "audit", "notice"}

var funcs = map[string]any{
	"join":  strings.Join,
	"lines": func(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") },
}

// Text is the set of text templates, one per kind ("update.txt", …).
var Text = texttemplate.Must(texttemplate.New("").Funcs(funcs).ParseFS(files, "*.txt"))

// HTML is the set of HTML templates, one per kind ("update.html", …).
var HTML = htmltemplate.Must(htmltemplate.New("").Funcs(funcs).ParseFS(files, "*.html"))
