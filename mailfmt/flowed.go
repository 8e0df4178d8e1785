package mailfmt

import "strings"

// decodeFlowed undoes RFC 3676 format=flowed on text whose transfer
// encoding and charset are already decoded and whose lines end in "\n".
//
//   - Quote depth (section 4.5) is the number of '>' starting a line; one
//     space after them is space-stuffing (section 4.4) and is removed, as
//     is one leading space on an unquoted line.
//   - A line ending in a space is flowed (section 4.2): it joins the next
//     line. With DelSp=yes (sections 4.1 and 4.2) that one trailing space
//     is deleted before joining.
//   - The signature separator "-- " is never flowed (section 4.3).
//   - A flowed line followed by a line of another quote depth ends its
//     paragraph there (section 4.5).
//
// Each resulting line carries its quote depth as that many '>' and a space,
// so Lines still sees quoted text as quoted.
func decodeFlowed(s string, delSp bool) string {
	var b strings.Builder
	b.Grow(len(s))
	open := false // the previous line was flowed and its paragraph goes on
	openDepth := 0
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		depth := 0
		for depth < len(line) && line[depth] == '>' {
			depth++
		}
		content := strings.TrimPrefix(line[depth:], " ")
		flowed := strings.HasSuffix(content, " ") && content != "-- "
		if open && depth != openDepth {
			b.WriteByte('\n')
			open = false
		}
		if !open && depth > 0 {
			b.WriteString(line[:depth])
			b.WriteByte(' ')
		}
		if flowed && delSp {
			content = content[:len(content)-1]
		}
		b.WriteString(content)
		open, openDepth = flowed, depth
		if !flowed && i < len(lines)-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
