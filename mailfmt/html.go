package mailfmt

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// HTML reduction limits, so hostile markup costs little.
const (
	maxHTMLStack   = 512 // open elements tracked; deeper ones are not
	maxQuotePrefix = 8   // '>' written for the deepest blockquotes
)

// Elements whose content is never shown as text.
var htmlSkipped = map[string]bool{
	"head": true, "script": true, "style": true, "title": true,
	"template": true, "xml": true, "svg": true, "object": true,
}

// Elements that start and end a line.
var htmlBlocks = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true,
	"caption": true, "center": true, "dd": true, "details": true,
	"dialog": true, "div": true, "dl": true, "dt": true, "fieldset": true,
	"figcaption": true, "figure": true, "footer": true, "form": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"header": true, "hr": true, "li": true, "main": true, "nav": true,
	"ol": true, "p": true, "pre": true, "section": true, "summary": true,
	"table": true, "tr": true, "ul": true,
}

// Elements that never have content or an end tag.
var htmlVoid = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true,
	"hr": true, "img": true, "input": true, "link": true, "meta": true,
	"param": true, "source": true, "track": true, "wbr": true,
}

// htmlToText reduces an HTML body to plain text for Lines: block elements
// and <br> break lines; whitespace collapses as a browser would, except in
// <pre>; script, style and head are dropped; entities are decoded; text
// inside <blockquote> (and Yahoo's quoted div) is prefixed with '>' like a
// plain-text quote; the start of a signature block marked by Gmail,
// Thunderbird, Outlook on the web or Apple Mail becomes a "-- " line.
func htmlToText(s string) string {
	r := reducer{lineStart: true}
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return r.finish()
		case html.TextToken:
			if r.skip == 0 {
				r.text(string(z.Text()))
			}
		case html.StartTagToken:
			r.start(z, false)
		case html.SelfClosingTagToken:
			r.start(z, true)
		case html.EndTagToken:
			name, _ := z.TagName()
			r.end(string(name))
		}
	}
}

// reducer accumulates the text of an HTML document.
type reducer struct {
	b         strings.Builder
	stack     []openElement
	skip      int // open skipped elements
	quote     int // open blockquotes
	pre       int // open <pre> elements
	lineStart bool
	space     bool // a collapsed space is pending
}

// openElement is an open element and what it changed.
type openElement struct {
	name         string
	skip, quote  bool
	pre          bool
	blockElement bool
}

func (r *reducer) start(z *html.Tokenizer, selfClosing bool) {
	nameB, hasAttr := z.TagName()
	name := string(nameB)
	var class, id string
	for hasAttr {
		var k, v []byte
		k, v, hasAttr = z.TagAttr()
		switch string(k) {
		case "class":
			class = strings.ToLower(string(v))
		case "id":
			id = strings.ToLower(string(v))
		}
	}
	if name == "body" {
		// A <head> left open ends here.
		r.popTo("head")
	}
	if r.skip > 0 && !htmlSkipped[name] {
		return
	}
	switch {
	case name == "br":
		r.newline()
		return
	case name == "td" || name == "th":
		r.space = true
	}
	el := openElement{name: name}
	if htmlBlocks[name] {
		el.blockElement = true
		r.breakLine()
	}
	if isSignatureBlock(class, id) {
		r.breakLine()
		r.write("-- ")
		r.newline()
	}
	if selfClosing || htmlVoid[name] {
		return
	}
	switch {
	case htmlSkipped[name]:
		el.skip = true
		r.skip++
	case name == "blockquote" || hasClass(class, "yahoo_quoted"):
		el.quote = true
		r.quote++
	case name == "pre":
		el.pre = true
		r.pre++
	}
	if len(r.stack) < maxHTMLStack {
		r.stack = append(r.stack, el)
	} else {
		// Untracked: undo what it changed, so nothing stays changed.
		r.undo(el)
	}
}

func (r *reducer) end(name string) {
	if name == "br" {
		// "</br>" is read as <br> by browsers.
		r.newline()
		return
	}
	if name == "td" || name == "th" {
		r.space = true
	}
	r.popTo(name)
}

// popTo closes the innermost open element called name and every element
// opened inside it; an end tag with no open element is ignored.
func (r *reducer) popTo(name string) {
	for i := len(r.stack) - 1; i >= 0; i-- {
		if r.stack[i].name != name {
			continue
		}
		for j := len(r.stack) - 1; j >= i; j-- {
			r.undo(r.stack[j])
		}
		r.stack = r.stack[:i]
		return
	}
}

// undo reverts what an element changed when it opened.
func (r *reducer) undo(el openElement) {
	if el.blockElement {
		r.breakLine()
	}
	if el.skip {
		r.skip--
	}
	if el.quote {
		r.breakLine()
		r.quote--
	}
	if el.pre {
		r.pre--
	}
}

// text adds character data.
func (r *reducer) text(t string) {
	if r.pre > 0 {
		for i, line := range strings.Split(normalizeNewlines(t), "\n") {
			if i > 0 {
				r.newline()
			}
			if line != "" {
				r.write(line)
			}
		}
		return
	}
	if t == "" {
		return
	}
	if isHTMLSpace(rune(t[0])) {
		r.space = true
	}
	words := strings.FieldsFunc(t, isHTMLSpace)
	for i, w := range words {
		if i > 0 {
			r.space = true
		}
		r.write(w)
	}
	if isHTMLSpace(rune(t[len(t)-1])) {
		r.space = true
	}
}

// write adds text that holds no line break, starting a line with the quote
// prefix and turning a pending collapsed space into one space.
func (r *reducer) write(s string) {
	if r.lineStart {
		if r.quote > 0 {
			r.b.WriteString(strings.Repeat(">", min(r.quote, maxQuotePrefix)))
			r.b.WriteByte(' ')
		}
		r.lineStart = false
	} else if r.space {
		r.b.WriteByte(' ')
	}
	r.space = false
	r.b.WriteString(s)
}

// newline ends the current line, even an empty one (inside a blockquote
// an empty line is still quoted).
func (r *reducer) newline() {
	if r.lineStart && r.quote > 0 {
		r.b.WriteString(strings.Repeat(">", min(r.quote, maxQuotePrefix)))
	}
	r.b.WriteByte('\n')
	r.lineStart = true
	r.space = false
}

// breakLine ends the current line unless it is empty.
func (r *reducer) breakLine() {
	if !r.lineStart {
		r.newline()
	}
	r.space = false
}

// finish returns the text with trailing white space (also no-break spaces)
// cut from each line, runs of empty lines reduced to one and no empty lines
// at either end.
func (r *reducer) finish() string {
	lines := strings.Split(r.b.String(), "\n")
	out := make([]string, 0, len(lines))
	blank := false
	for _, l := range lines {
		l = strings.TrimRightFunc(l, unicode.IsSpace)
		if l == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// isHTMLSpace reports HTML's ASCII whitespace (not U+00A0, which does not
// collapse).
func isHTMLSpace(c rune) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// isSignatureBlock reports the elements that mail clients put around the
// sender's own signature: Gmail's gmail_signature, Thunderbird's
// moz-signature, Outlook on the web's id="Signature" and Apple Mail's
// id="AppleMailSignature".
func isSignatureBlock(class, id string) bool {
	return hasClass(class, "gmail_signature") || hasClass(class, "moz-signature") ||
		id == "signature" || id == "applemailsignature"
}

// hasClass reports whether the space-separated class list holds c.
func hasClass(classes, c string) bool {
	for _, f := range strings.Fields(classes) {
		if f == c {
			return true
		}
	}
	return false
}
