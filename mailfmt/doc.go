// Package mailfmt is bottlepost's mail format: it reads and writes RFC 5322
// messages and knows nothing of how they travel (IMAP, SMTP, the hub and the
// outbox are package mailer) nor of games.
//
// Reading:
//
//   - Parse reads a message (size-capped) into a Message: the sender, every
//     recipient (so the service can find the +TOKEN address the mail was sent
//     to), the threading and noise-relevant header fields, and Body, the text
//     chosen from the MIME tree (text/plain preferred, HTML reduced to text,
//     format=flowed decoded, every charset go-message knows converted to
//     UTF-8, attachments ignored).
//   - Lines cuts Body down to the command lines: quoted replies, reply
//     headers, forwarded messages, signatures and mobile footers removed,
//     whitespace collapsed, case kept.
//   - Classify decides whether a message must never be answered (bounces,
//     auto-replies, bulk and list mail, our own mail coming back).
//
// Addresses and subjects: Key is the one identity of an address (FromKey
// reads it from raw mail), SameAddress compares Keys, PlusToken reads a
// +TOKEN sub-address; FormatTag and ParseTag the game tag carried in
// subjects.
//
// Writing: Outgoing composes every mail the service sends with go-message's
// writer.
//
// docs/mail.md describes the parsing rules in prose; testdata/corpus holds
// real-world-style messages from common clients with what each must yield.
package mailfmt
