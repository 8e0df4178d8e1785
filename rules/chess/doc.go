// Package chess is orthodox chess under the FIDE Laws of Chess, for
// bottlepost: legal move generation (castling, en passant, promotion,
// check), the end of the game (checkmate, stalemate, dead positions, and the
// fifty-move rule and threefold repetition, which the server applies
// without a claim), SAN in and out (with coordinate and long forms accepted
// on input), FEN in and out, and PGN export.
//
// Positions are bitboards: bit sq is rules.ChessBoard's square sq (a1 = 0,
// h8 = 63), and every attack set is precomputed from that board at start-up
// (leaper tables, magic slider tables). Moves are generated legal from the
// start, using the pieces that give check and the pinned pieces. A State is
// immutable; Apply plays a move on a copy of the position. Perft counts the
// last ply without playing it.
//
// Start a game with Variant.New (Options.Position takes a FEN) or ParseFEN;
// read moves with State.Parse; play them with State.Apply; export a game
// with rules.WritePGN.
package chess
