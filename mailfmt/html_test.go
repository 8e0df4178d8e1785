package mailfmt

import (
	"strings"
	"testing"
)

func TestHTMLToText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"plain text", "e4", "e4"},
		{"paragraphs and breaks", "<p>e4</p><p>e5<br>Nf3</p>", "e4\ne5\nNf3"},
		{"whitespace collapses", "<div>  Nf3\n\t  and\n draw?  </div>", "Nf3 and draw?"},
		{"inline elements keep words together", "<span>N</span><b>f3</b> <i>!</i>", "Nf3 !"},
		{"entities", "<p>&lt;b&gt; &amp; &quot;x&quot; &#8211; &eacute;</p>", "<b> & \"x\" – é"},
		{"no-break space survives", "<p>draw&nbsp;?</p>", "draw\u00a0?"},
		{"head, style and script dropped", "<html><head><title>T</title><style>p{x:1}</style></head><body><script>alert(1)</script><p>Qd2</p></body></html>", "Qd2"},
		{"unclosed head ends at body", "<head><meta charset=utf-8><body><p>Qd2</p>", "Qd2"},
		{"comments and conditional comments dropped", "<!--[if mso]><xml><o:x/></xml><![endif]--><p>c4<!-- hidden --></p>", "c4"},
		{"outlook xml island dropped", "<xml><o:OfficeDocumentSettings>junk</o:OfficeDocumentSettings></xml><p>c4</p>", "c4"},
		{"pre keeps lines and spaces", "<pre>1. e4  e5\n2. Nf3</pre>", "1. e4  e5\n2. Nf3"},
		{"blockquote is quoted", "<div>e4</div><blockquote>your move<br>now</blockquote><div>after</div>", "e4\n> your move\n> now\nafter"},
		{"nested blockquotes", "<blockquote>a<blockquote>b</blockquote>c</blockquote>", "> a\n>> b\n> c"},
		{"empty line inside a quote stays quoted", "<blockquote>a<br><br>b</blockquote>", "> a\n>\n> b"},
		{"yahoo quote", `<div>e4</div><div class="yahoo_quoted">On Monday, X wrote:<div>old</div></div>`, "e4\n> On Monday, X wrote:\n> old"},
		{"gmail signature", `<div>e4</div><div><span class="gmail_signature_prefix">-- </span><br><div class="gmail_signature">Marta</div></div>`, "e4\n--\n--\nMarta"},
		{"thunderbird signature", `<p>e4</p><pre class="moz-signature" cols="72">Alice</pre>`, "e4\n--\nAlice"},
		{"outlook web signature", `<div>e4</div><div id="Signature">Nadia</div>`, "e4\n--\nNadia"},
		{"table cells are spaced", "<table><tr><td>a1</td><td>b2</td></tr><tr><td>c3</td></tr></table>", "a1 b2\nc3"},
		{"end tag br is a break", "a</br>b", "a\nb"},
		{"stray end tags ignored", "</div></blockquote>e4</p>", "e4"},
		{"unclosed blockquote quotes to the end", "e4<blockquote>old", "e4\n> old"},
		{"images dropped", `<img src="cid:x" alt="board">Kg1`, "Kg1"},
		{"blank runs collapse", "<p>a</p><p></p><p>&nbsp;</p><br><br><p>b</p>", "a\n\nb"},
		{"malformed markup", "<p <b>e4</b> <<>> <a href='x>y'>z</a>", "e4 <<>> z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := htmlToText(tt.in); got != tt.want {
				t.Errorf("htmlToText(%q) =\n%q\nwant\n%q", tt.in, got, tt.want)
			}
		})
	}
}

func TestHTMLToTextBounds(t *testing.T) {
	// Deeply nested quotes: the prefix stays short and every level closes.
	in := strings.Repeat("<blockquote>", 5000) + "deep" + strings.Repeat("</blockquote>", 5000) + "after"
	got := htmlToText(in)
	want := strings.Repeat(">", maxQuotePrefix) + " deep\nafter"
	if got != want {
		t.Errorf("got %q, want %q", clip(got, 200), want)
	}
	// More open elements than tracked: no panic, text kept.
	in = strings.Repeat("<div><span>", 3*maxHTMLStack) + "x"
	if got := htmlToText(in); got != "x" {
		t.Errorf("deep divs: got %q", clip(got, 200))
	}
}
