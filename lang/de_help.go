package lang

// The help texts in German (issue 34): the answers to help, help COMMAND,
// help ratings and help tournaments, and each variant's summary (help
// VARIANT, the invitation). The commands, the moves and the ruling numbers
// stay as in English.
func init() {
	add(German, map[string]string{
		"Commands (one per line; case and extra spaces do not matter):": "Befehle (einer je Zeile; Groß-/Kleinschreibung und Leerzeichen egal):",
		`new VARIANT [vs ADDRESS] [as white|black|random] [rules NAME] [time CONTROL]
                    challenge someone (they answer accept or decline);
                    ADDRESS may carry their name: %s;
                    add casual for a game that is not rated
accept / decline    answer a challenge
MOVE  or  move MOVE play a move in the variant's notation
board               the board as you see it; board format list|both|diagram
                    draws it for you in words, both or the diagram
history             the game's record so far
draw                offer a draw, or accept the one offered
resign              give up the game
games               your games and whose turn it is
ratings [VARIANT]   the ratings: a pool's top 20 and your own; help
                    ratings explains them
vacation N days     stop your clocks for N days
timezone ZONE       show deadlines in your zone, e.g. Europe/Berlin
observe GAME        follow a game as a spectator
pgn GAME            the record of a game you played or observed, once it
                    has ended, as a PGN file to check with bottlepost verify
help VARIANT        the rules and notation of a variant
if THEIRS then MINE a conditional move: played for you at once if your
                    opponent's next move is THEIRS; chain pairs one move
                    deeper: if e5 then Nf3 if Nc6 then Bb5; several lines
                    are alternatives; send them on your opponent's turn,
                    alone or after your move (at most 20 lines a game)
conditionals        your pending conditional lines; conditionals off
                    clears them
tournament N        a tournament's crosstable; tournaments lists yours;
                    join N (or join, replying to the invitation) enters
                    one; help tournaments says how referees run them
takeback            ask to take back your last move (not yet answered);
                    the opponent replies takeback accept or decline
say TEXT            words for your opponent, with your move or alone
messages off / on   stop or resume your opponents' words
name NAME           the name others see (name off: your mail's name)
notation iccf       chess moves in ICCF numbers too (notation algebraic)
language de|en      your mails in German (Deutsch) or English
settings            all your settings and how to change them
address NEW         move your account to a new mail address
help COMMAND        more on board, notation, settings, takeback, say,
                    messages, name, address, language, ratings, tournaments`: `new VARIANT [vs ADDRESS] [as white|black|random] [rules NAME] [time CONTROL]
                    fordert jemanden heraus (Antwort: accept oder
                    decline); ADDRESS darf einen Namen tragen,
                    wie %s; casual dazu
                    für eine ungewertete Partie
accept / decline    eine Herausforderung annehmen oder ablehnen
MOVE oder move MOVE einen Zug in der Notation der Variante spielen
board               das Brett, wie Sie es sehen; board format
                    list|both|diagram zeigt es Ihnen in Worten, beides
                    oder als Diagramm
history             der bisherige Partieverlauf
draw                Remis anbieten oder das angebotene annehmen
resign              die Partie aufgeben
games               Ihre Partien und wer am Zug ist
ratings [VARIANT]   die Wertungszahlen: die besten 20 eines Pools und
                    Ihre eigene; help ratings erklärt sie
vacation N days     Ihre Uhren N Tage anhalten (Urlaub)
timezone ZONE       Fristen in Ihrer Zeitzone, z. B. Europe/Berlin
observe GAME        einer Partie als Zuschauer folgen
pgn GAME            der Partieverlauf einer beendeten Partie, die Sie
                    gespielt oder verfolgt haben, als PGN-Datei zum
                    Prüfen mit bottlepost verify
help VARIANT        Regeln und Notation einer Variante
if THEIRS then MINE ein bedingter Zug: sofort für Sie gespielt, wenn der
                    nächste Zug Ihres Gegners THEIRS ist; Paare ketten
                    einen Zug tiefer: if e5 then Nf3 if Nc6 then Bb5;
                    mehrere Zeilen sind Alternativen; senden Sie sie,
                    wenn Ihr Gegner am Zug ist, allein oder nach Ihrem
                    Zug (höchstens 20 Zeilen je Partie)
conditionals        Ihre offenen bedingten Züge; conditionals off
                    löscht sie
tournament N        die Kreuztabelle eines Turniers; tournaments listet
                    Ihre; join N (oder join als Antwort auf die
                    Einladung) tritt einem bei; help tournaments sagt,
                    wie Schiedsrichter Turniere leiten
takeback            um Zugrücknahme Ihres letzten Zuges bitten (solange
                    er unbeantwortet ist); der Gegner antwortet
                    takeback accept oder takeback decline
say TEXT            Worte an Ihren Gegner, mit Ihrem Zug oder allein
messages off / on   die Worte Ihrer Gegner abstellen oder wieder lesen
name NAME           der Name, den andere sehen (name off: der Ihrer Mail)
notation iccf       Schachzüge auch in ICCF-Ziffern (notation algebraic)
language de|en      Ihre Mails auf Deutsch oder Englisch (English)
settings            alle Ihre Einstellungen und wie man sie ändert
address NEW         Ihr Konto auf eine neue Mailadresse umziehen
help COMMAND        mehr zu board, notation, settings, takeback, say,
                    messages, name, address, language, ratings, tournaments`,
		`Time controls: 3d (days per move), 10/50d (10 moves in 50 days),
either with grace: 3d+2d.`: `Bedenkzeiten: 3d (Tage je Zug), 10/50d (10 Züge in 50 Tagen),
beide auch mit Karenzzeit: 3d+2d.`,
		"help takes at most a variant name": "help nimmt höchstens den Namen einer Variante",
		"unknown variant %q (known: %s)":    "unbekannte Variante %q (bekannt: %s)",
		`say TEXT

Passes TEXT to your opponent: with your move (below its news, as
"Alice says:"), or in a mail of its own when no move goes with it, also
when the move of the same mail was refused. Several say lines of a mail
are joined, one line each. Write from the game's address (reply to its
mail) or from your personal address with the game's tag in the subject.
At most 1000 characters a mail (a longer text is cut, and you are told)
and 10 mails with words a day per game. Observers, the web pages and the
PGN records never show them; a referee's audit lists them. An opponent
may turn them off (messages off): you are told once.
`: `say TEXT

Gibt TEXT an Ihren Gegner weiter: mit Ihrem Zug (unter den Neuigkeiten
des Zuges, als "Alice schreibt:") oder in einer eigenen Mail, wenn kein
Zug dabei ist, auch wenn der Zug derselben Mail abgelehnt wurde. Mehrere
say-Zeilen einer Mail werden verbunden, je eine Zeile. Schreiben Sie von
der Adresse der Partie (Antwort auf ihre Mail) oder von Ihrer
persönlichen Adresse mit dem Kennzeichen der Partie im Betreff.
Höchstens 1000 Zeichen je Mail (ein längerer Text wird gekürzt, und Sie
erfahren es) und 10 Mails mit Worten am Tag je Partie. Zuschauer, die
Webseiten und die PGN-Dateien zeigen sie nie; die Prüfung durch einen
Schiedsrichter listet sie auf. Ein Gegner kann sie abstellen (messages
off): Sie erfahren es einmal.
`,
		`messages off | messages on

messages off: your opponents' words (say …) no longer reach you; each
who writes some is told once that they were not passed on. messages on:
they reach you again (the words sent meanwhile are not delivered later).
`: `messages off | messages on

messages off: die Worte Ihrer Gegner (say …) erreichen Sie nicht mehr;
wer welche schreibt, erfährt einmal, dass sie nicht weitergegeben
wurden. messages on: sie erreichen Sie wieder (die inzwischen gesandten
Worte werden nicht nachgeliefert).
`,
		`takeback | takeback accept | takeback decline

takeback asks your opponent to let you take back your last move, while
they have not answered it. They reply takeback accept (the position
returns to before your move, and you move again) or takeback decline; a
move of theirs declines it too. Both sides' pending conditional lines
are dropped when a takeback is accepted. At most 3 takebacks a game and
side. The record keeps the move and the takeback, each a record of its
own: bottlepost verify replays them, and the PGN shows the move taken
back as a comment. Seachess has no takebacks.
`: `takeback | takeback accept | takeback decline

takeback bittet Ihren Gegner um die Zugrücknahme Ihres letzten Zuges,
solange er ihn nicht beantwortet hat. Er antwortet takeback accept (die
Stellung kehrt zurück vor Ihren Zug, und Sie ziehen erneut) oder
takeback decline; ein Zug von ihm lehnt sie ebenfalls ab. Die offenen
bedingten Züge beider Seiten entfallen, wenn eine Zugrücknahme
angenommen wird. Höchstens 3 Zugrücknahmen je Partie und Seite. Der
Partieverlauf behält den Zug und die Zugrücknahme, jede ein eigener
Eintrag: bottlepost verify spielt sie nach, und die PGN-Datei zeigt den
zurückgenommenen Zug als Kommentar. Seachess kennt keine Zugrücknahme.
`,
		`address NEW

Moves your account — games, ratings, settings, vacations — to the
address NEW. Send it from your current address; a confirmation goes to
NEW, and a reply to it from NEW within 3 days moves the account. Your
games go on from the new address (reply to their mails as before); your
old address is told, and mail from it no longer acts on your games. An
address that is another account's cannot be taken; at most one change
every 7 days.
`: `address NEW

Zieht Ihr Konto - Partien, Wertungen, Einstellungen, Urlaub - auf die
Adresse NEW um. Senden Sie es von Ihrer jetzigen Adresse; eine
Bestätigung geht an NEW, und eine Antwort darauf von NEW binnen 3 Tagen
zieht das Konto um. Ihre Partien gehen von der neuen Adresse aus weiter
(antworten Sie auf ihre Mails wie bisher); Ihre alte Adresse erfährt es,
und Mail von ihr wirkt nicht mehr auf Ihre Partien. Die Adresse eines
anderen Kontos kann nicht übernommen werden; höchstens ein Wechsel alle
7 Tage.
`,
		`board [GAME] | board format diagram | board format list | board format both

board sends the board of your game as you may see it. board format sets
how every mail with a board draws it for you: diagram (the default) is
the drawn board, letters in the text part and a table in the HTML part;
list gives the pieces in words instead, one line per side (White: King
g1; Queen d1; Rooks a1, f1; ...), for screen readers; both gives the
drawn board and the list below it. A Seachess list shows your own hidden
pieces, marked, and nothing of your opponent's.
`: `board [GAME] | board format diagram | board format list | board format both

board sendet das Brett Ihrer Partie, wie Sie es sehen dürfen. board
format legt fest, wie jede Mail mit Brett es Ihnen zeigt: diagram (die
Vorgabe) ist das gezeichnete Brett, Buchstaben im Textteil und eine
Tabelle im HTML-Teil; list nennt stattdessen die Figuren in Worten, eine
Zeile je Seite (Weiß: König g1; Dame d1; Türme a1, f1; ...), für
Bildschirmleser; both zeigt das gezeichnete Brett und darunter die
Liste. Eine Seachess-Liste zeigt Ihre eigenen verborgenen Figuren,
markiert, und nichts von denen Ihres Gegners.
`,
		`notation iccf | notation algebraic

notation iccf shows the moves of your chess mails in ICCF numeric
notation too, after the algebraic: "White played 12. Nf3 (7163).", "Your
move e4 (5254) was accepted." and the last moves. The records and PGN
files stay algebraic. ICCF notation exists for chess only. Anyone may
write moves in it: 5254 for e2-e4, castling as the king's move (5171),
a fifth digit for a promotion (1 queen, 2 rook, 3 bishop, 4 knight).
notation algebraic goes back to algebraic only.
`: `notation iccf | notation algebraic

notation iccf zeigt die Züge Ihrer Schach-Mails auch in ICCF-Ziffern,
nach der algebraischen Notation: "Weiß spielte 12. Nf3 (7163).", "Ihr
Zug e4 (5254) wurde angenommen." und die letzten Züge. Partieverläufe
und PGN-Dateien bleiben algebraisch. ICCF-Notation gibt es nur für
Schach. Jeder darf Züge in ihr schreiben: 5254 für e2-e4, die Rochade
als Zug des Königs (5171), eine fünfte Ziffer für eine Umwandlung (1
Dame, 2 Turm, 3 Läufer, 4 Springer). notation algebraic kehrt zur
algebraischen Notation allein zurück.
`,
		`settings

Lists your settings and the command that changes each: your name,
language, board format, notation, messages, time zone, vacation days left
and daily digest.
`: `settings

Listet Ihre Einstellungen und den Befehl, der jede ändert: Ihren Namen,
die Sprache, das Brettformat, die Notation, die Worte der Gegner, die
Zeitzone, die übrigen Urlaubstage und die Tagesübersicht.
`,
		`language de | language en

language de writes your mails in German from now on: every answer,
board, reminder, digest and help text, and this service's invitations
to you; language en goes back to English. Commands and moves stay as
they are: you keep writing move, resign, help in English, and moves in
each variant's notation; in chess you may also write the German piece
letters K D T L S (language de only). Your opponent reads in their own
language.
`: `language de | language en

language de schreibt Ihre Mails von nun an auf Deutsch: jede Antwort,
jedes Brett, jede Erinnerung, die Tagesübersicht und jede Hilfe, und die
Einladungen dieses Dienstes an Sie; language en kehrt zu Englisch
zurück. Befehle und Züge bleiben, wie sie sind: Sie schreiben weiter
move, resign, help auf Englisch und Züge in der Notation jeder Variante;
im Schach dürfen Sie auch die deutschen Figurenbuchstaben K D T L S
schreiben (nur mit language de). Ihr Gegner liest in seiner eigenen
Sprache.
`,
		`name NAME | name off | name

name Alice Liddell sets the name your opponents, the web pages, the PGN
records and the ratings lists show for you instead of the display name
of your mail: 1 to 40 letters, digits, spaces and . - ' (not "player N").
name off goes back to your mail's name; name alone says how you are
shown. Finished games keep the names they ended with. Names are not
identities: your opponents' mails still show your address.
`: `name NAME | name off | name

name Alice Liddell setzt den Namen, den Ihre Gegner, die Webseiten, die
PGN-Dateien und die Wertungslisten für Sie zeigen, statt des Anzeige-
namens Ihrer Mail: 1 bis 40 Buchstaben, Ziffern, Leerzeichen und . - '
(nicht "player N"). name off kehrt zum Namen Ihrer Mail zurück; name
allein sagt, wie Sie gezeigt werden. Beendete Partien behalten die
Namen, mit denen sie endeten. Namen sind keine Identitäten: die Mails
Ihrer Gegner zeigen weiter Ihre Adresse.
`,
		`Ratings

Every game is rated unless the challenge says casual:
    new chess vs bob@example.org casual
An open challenge is matched only with one of the same choice. A game
that ends before each side has made a move is not rated.

Each variant and ruleset is a pool of its own: chess, seachess,
submachine, baltic, baltic/sc2022, battle, transporter. The system is
Glicko-2: a new player starts at 1500 with a rating deviation (RD) of
350. The RD says how sure the rating is (two RDs either side of it cover
the true strength with %d%% certainty): it shrinks with every game and
grows again, day by day, while you do not play in the pool. A rating
shown with a question mark (1500?) is provisional: its RD is above 110.

  ratings            your ratings in the pools you play in, and their
                     leaders
  ratings VARIANT    a pool's top 20 and your rating and rank, e.g.
                     ratings chess, ratings baltic/sc2022`: `Wertungen

Jede Partie wird gewertet, außer die Herausforderung sagt casual:
    new chess vs bob@example.org casual
Eine offene Herausforderung wird nur mit einer der gleichen Wahl
gepaart. Eine Partie, die endet, bevor jede Seite einen Zug gemacht
hat, wird nicht gewertet.

Jede Variante und jedes Regelwerk ist ein eigener Pool: chess,
seachess, submachine, baltic, baltic/sc2022, battle, transporter. Das
System ist Glicko-2: ein neuer Spieler beginnt mit 1500 und einer
Wertungsabweichung (RD) von 350. Die RD sagt, wie sicher die
Wertungszahl ist (zwei RD zu beiden Seiten decken die wahre Spielstärke
mit %d%% Sicherheit ab): sie schrumpft mit jeder Partie und wächst Tag
für Tag wieder, solange Sie in dem Pool nicht spielen. Eine Wertungszahl
mit Fragezeichen (1500?) ist vorläufig: ihre RD liegt über 110.

  ratings            Ihre Wertungszahlen in den Pools, in denen Sie
                     spielen, und deren Spitze
  ratings VARIANT    die besten 20 eines Pools und Ihre Wertungszahl und
                     Ihr Rang, z. B. ratings chess, ratings baltic/sc2022`,
		`Tournaments

A referee creates a round-robin section by mail to their personal
address (one command; the list of players may go on over the next lines):
    tournament new "Club championship" variant chess time 3d
        players alice@example.org, "Bob Smith" <bob@example.net>, ...
  options: rules NAME, double (each pair meets twice), casual (not rated),
  starts YYYY-MM-DD (that day the games start with those who joined)
Each player (3 to 20) is invited and replies join or decline. When all
have answered and at least 3 joined, or when the referee writes
tournament N start, every game starts at once, paired and coloured by
the Berger tables; each game has its own thread, and each player gets
one mail listing their games.

  tournament N       the crosstable: points, Sonneborn-Berger, wins
  tournaments        your tournaments and your standing in each
  join N             join tournament N (or reply join to the invitation)
  withdraw N         leave tournament N (withdraw N confirm confirms it):
                     each of your unfinished games is lost by forfeit
A referee may also write tournament N withdraw ADDRESS. A forfeit counts
in the crosstable (+ and −) and is not rated.`: `Turniere

Ein Schiedsrichter legt ein Rundenturnier per Mail an seine persönliche
Adresse an (ein Befehl; die Liste der Spieler darf auf den nächsten
Zeilen weitergehen):
    tournament new "Club championship" variant chess time 3d
        players alice@example.org, "Bob Smith" <bob@example.net>, ...
  Optionen: rules NAME, double (jedes Paar spielt zweimal), casual
  (ungewertet), starts YYYY-MM-DD (an dem Tag beginnen die Partien mit
  denen, die beigetreten sind)
Jeder Spieler (3 bis 20) wird eingeladen und antwortet join oder
decline. Wenn alle geantwortet haben und mindestens 3 beigetreten sind,
oder wenn der Schiedsrichter tournament N start schreibt, beginnen alle
Partien zugleich, gepaart und mit Farben nach den Berger-Tabellen; jede
Partie hat ihren eigenen Mailverlauf, und jeder Spieler erhält eine
Mail mit der Liste seiner Partien.

  tournament N       die Kreuztabelle: Punkte, Sonneborn-Berger, Siege
  tournaments        Ihre Turniere und Ihr Stand in jedem
  join N             Turnier N beitreten (oder auf die Einladung mit
                     join antworten)
  withdraw N         aus Turnier N zurückziehen (withdraw N confirm
                     bestätigt es): jede Ihrer unbeendeten Partien ist
                     kampflos verloren
Ein Schiedsrichter kann auch tournament N withdraw ADDRESS schreiben.
Eine kampflos entschiedene Partie zählt in der Kreuztabelle (+ und −)
und wird nicht gewertet.`,
		`Chess: the FIDE Laws of Chess.

Aim: checkmate the opposing king - attack it so that it has no
legal move (FIDE 1.4, 5.1.1). White moves first (FIDE 1.2).

Write moves in algebraic notation (FIDE Appendix C):
  e4  exd5  Nf3  Nbd2  R1e2  Qxh7+  O-O  O-O-O  e8=Q
Also accepted: coordinates (e2e4, e7e8q), long form (e2-e4,
Ng1-f3), 0-0 and 0-0-0, and any letter case that is not ambiguous.
"B" is always the bishop and "b" the b-pawn: Bxc3 is not bxc3.
Marks such as + and # are optional.

The moves (FIDE 3): bishop along diagonals (3.2), rook along
ranks and files (3.3), queen both (3.4), none of them over other
pieces (3.5); knight jumps (3.6); pawns move forward and capture
diagonally forward, two squares on the first move (3.7), take en
passant (3.7.3.1) and promote on the last rank (3.7.3.3); the king
steps to an adjoining square or castles (3.8). No move may leave
your own king in check (3.9.2).

The server ends the game by itself, without a claim, on:
  checkmate (5.1.1) and stalemate (5.2.1);
  a dead position: K v K, K and a knight or bishop v K, or only
    bishops all on squares of one colour (5.2.2);
  threefold repetition of a position (9.2);
  50 moves each without a capture or pawn move (9.3).
`: `Chess: die FIDE-Schachregeln.

Ziel: den gegnerischen König mattsetzen - ihn so angreifen, dass er
keinen regelgemäßen Zug hat (FIDE 1.4, 5.1.1). Weiß zieht zuerst
(FIDE 1.2).

Züge schreiben Sie in algebraischer Notation (FIDE Anhang C):
  e4  exd5  Nf3  Nbd2  R1e2  Qxh7+  O-O  O-O-O  e8=Q
Ebenso angenommen: Koordinaten (e2e4, e7e8q), die lange Form (e2-e4,
Ng1-f3), 0-0 und 0-0-0 sowie jede eindeutige Groß-/Kleinschreibung.
"B" ist immer der Läufer (bishop), "b" der b-Bauer: Bxc3 ist nicht bxc3.
Zeichen wie + und # sind freiwillig. Mit language de dürfen Sie auch die
deutschen Buchstaben K D T L S schreiben (Sf3, Dxh7+, Lxc3).

Die Züge (FIDE 3): der Läufer auf Diagonalen (3.2), der Turm auf Reihen
und Linien (3.3), die Dame auf beiden (3.4), keiner über andere Figuren
hinweg (3.5); der Springer springt (3.6); Bauern ziehen vorwärts und
schlagen schräg vorwärts, beim ersten Zug zwei Felder (3.7), schlagen en
passant (3.7.3.1) und werden auf der letzten Reihe umgewandelt
(3.7.3.3); der König zieht auf ein Nachbarfeld oder rochiert (3.8). Kein
Zug darf den eigenen König im Schach lassen (3.9.2).

Der Server beendet die Partie von selbst, ohne Reklamation, bei:
  Matt (5.1.1) und Patt (5.2.1);
  toter Stellung: K gegen K, K und ein Springer oder Läufer gegen K,
    oder nur Läufer, alle auf Feldern einer Farbe (5.2.2);
  dreimaliger Wiederholung einer Stellung (9.2);
  50 Zügen jeder Seite ohne Schlagen oder Bauernzug (9.3).
`,
		`Seachess: checkmate the enemy commando ship (K). 12x12 sea, havens
c1-j2 (White) and c11-j12 (Black) (S1). Rulings S1-S11 decide.
B boat: pawn; 2-4 squares from the start; e.p. only onto rank 3/10;
  promotes on the last rank (=C =T =S =D =A); stuck on a10 etc.: steps
  sideways toward the centre (S2).
C cruiser: rook. Ce5-M lays a hidden mine on its square; reload by
  ending a move in your haven (S3). A mine destroys any piece moving
  onto it; nothing crosses one. You are offered moves across an enemy
  mine you cannot see: the piece stops there and dies (S3.4).
T torpedo boat: rook; Tj5xth7 hits 1-2 squares on a forward diagonal,
  forward = the way it last moved; reload in your haven (S4).
S submarine: knight. Sd1v-e3 dives (needs V>=2 visible turns, stays
  down min(V/2,4) turns); sSe3-f5 moves underwater (hidden);
  sSe3-f5^x surfaces capturing; sSf5^x / sSf5^ surfaces in place (S5).
D destroyer: bishop; takes a submerged submarine it lands on and forces
  up enemy ones next to it orthogonally (S6).
A carrier: 1-2 squares any way, or a blockable horse move. Ad4xag7
  launches its aircraft onto the 3-square outline; then Aaxg1 or Aa-A
  each turn, nothing else moves meanwhile (S7).
K commando ship: king; O-O (with T), O-O-O (with C) (S8).
The referee, who sees everything, judges check (S8.3). You may send a
move that looks like leaving your commando ship in check: a mine or a
submarine you cannot see may shield it, and then it is accepted. If it
is not shielded the referee refuses it, says only that, and you send
another. A commando ship is never captured (S8.4).
Hidden moves reach your opponent as "(h)" (S10). Draws: stalemate,
4th repetition, 75 moves each without capture or boat move (S9).`: `Seachess: setzen Sie das feindliche Kommandoschiff (K) matt. Meer 12x12,
Häfen c1-j2 (Weiß) und c11-j12 (Schwarz) (S1). Es gelten die Regeln
S1-S11.
B Boot: Bauer; vom Start 2-4 Felder; e.p. nur auf Reihe 3/10; wird auf
  der letzten Reihe umgewandelt (=C =T =S =D =A); festgefahren auf a10
  usw.: zieht seitwärts zur Mitte (S2).
C Kreuzer: Turm. Ce5-M legt eine verborgene Mine auf sein Feld; neu
  laden, indem er einen Zug im eigenen Hafen beendet (S3). Eine Mine
  zerstört jede Figur, die auf sie zieht; nichts überquert eine. Ihnen
  werden Züge über eine feindliche Mine angeboten, die Sie nicht sehen:
  die Figur hält dort an und geht unter (S3.4).
T Torpedoboot: Turm; Tj5xth7 trifft 1-2 Felder auf einer Diagonale nach
  vorn, vorn = die Richtung seines letzten Zuges; neu laden im eigenen
  Hafen (S4).
S U-Boot: Springer. Sd1v-e3 taucht (braucht V>=2 sichtbare Züge, bleibt
  min(V/2,4) Züge unten); sSe3-f5 zieht unter Wasser (verborgen);
  sSe3-f5^x taucht schlagend auf; sSf5^x / sSf5^ taucht an Ort und
  Stelle auf (S5).
D Zerstörer: Läufer; schlägt ein getauchtes U-Boot, auf dem er landet,
  und zwingt feindliche, orthogonal benachbarte zum Auftauchen (S6).
A Flugzeugträger: 1-2 Felder in jede Richtung oder ein sperrbarer
  Springerzug. Ad4xag7 startet sein Flugzeug auf den Rand 3 Felder weit;
  dann Aaxg1 oder Aa-A in jedem Zug, sonst zieht nichts (S7).
K Kommandoschiff: König; O-O (mit T), O-O-O (mit C) (S8).
Der Schiedsrichter, der alles sieht, beurteilt das Schach (S8.3). Sie
dürfen einen Zug senden, der Ihr Kommandoschiff scheinbar im Schach
lässt: eine Mine oder ein U-Boot, das Sie nicht sehen, kann es decken,
und dann wird er angenommen. Ist es nicht gedeckt, lehnt der
Schiedsrichter ihn ab, sagt nur das, und Sie senden einen anderen. Ein
Kommandoschiff wird nie geschlagen (S8.4).
Verborgene Züge erreichen Ihren Gegner als "(h)" (S10). Remis: Patt,
4. Wiederholung, 75 Züge jeder Seite ohne Schlagen oder Bootszug (S9).`,
		`Submachine Chess: checkmate the enemy king (M6), on a board of four
5x5 sub-boards with holes (M1) and wrap-around edges (M2).

Board (M1): files a-k, ranks 1-12, 100 squares. Holes: b3 d3 h3 j3
b10 d10 h10 j10 and the gaps on file f and on ranks 6-7; the loose
squares f3 f10 c6 c7 i6 i7 f6 f7 join the sub-boards.
Wraps (M2): on ranks 1 2 4 5 8 9 11 12 each sub-board is a cylinder:
a rook goes b1-a1-e1. Straight down off rank 1 a piece goes on at
rank 5 one file nearer the centre (a1->b5, e1->d5, c1 stops), up off
rank 12 at rank 8 (a12->b8); never back the other way. Holes stop
everything but pawns; knight leaps never wrap.
Teleports (M3): a piece (not a pawn) on c3, i3, c10 or i10 may jump
to any other of them, capturing there; it attacks them too.
Pieces (M4): K Q R B N as in chess, C cardinal (bishop+knight),
M marshall (rook+knight). No castling.
Pawns (M5): step to the next existing square ahead, jumping holes
(b2-b4, f3-f6, a5-a8, but c5-c6); two such steps from the start
rank (b2-b5), en passant; capture one square diagonally forward, no
wrap; promote on rank 10-12 (Black 3-1) to Q R B N C M: g9-g10=Q,
b4xc3=Q.
Draws (M6): stalemate, threefold repetition, 50 moves, bare kings.

Notation (M7): piece letter, from, "-" or "x", to: Nb1-c3, Qe1xe5,
b2-b4, c4xd5, g9-g10=Q; a teleport is the plain move, Nc3-i10.
Short forms work when they fit one move only: Nc3, Nbc3, b4, bxc3.
Case, spaces and check marks do not matter.`: `Submachine Chess: setzen Sie den feindlichen König matt (M6), auf einem
Brett aus vier 5x5-Teilbrettern mit Löchern (M1) und Rändern, die
herumführen (M2).

Brett (M1): Linien a-k, Reihen 1-12, 100 Felder. Löcher: b3 d3 h3 j3
b10 d10 h10 j10 und die Lücken auf Linie f und auf den Reihen 6-7; die
einzelnen Felder f3 f10 c6 c7 i6 i7 f6 f7 verbinden die Teilbretter.
Herumführen (M2): auf den Reihen 1 2 4 5 8 9 11 12 ist jedes Teilbrett
ein Zylinder: ein Turm zieht b1-a1-e1. Gerade nach unten über Reihe 1
hinaus geht eine Figur auf Reihe 5 weiter, eine Linie näher zur Mitte
(a1->b5, e1->d5, c1 hält an), nach oben über Reihe 12 auf Reihe 8
(a12->b8); nie umgekehrt. Löcher halten alles auf außer Bauern;
Springersprünge führen nie herum.
Teleporter (M3): eine Figur (kein Bauer) auf c3, i3, c10 oder i10 darf
auf jedes andere dieser Felder springen und dort schlagen; sie greift
sie auch an.
Figuren (M4): K Q R B N wie im Schach, C Kardinal (Läufer+Springer),
M Marschall (Turm+Springer). Keine Rochade.
Bauern (M5): ziehen auf das nächste vorhandene Feld voraus und
überspringen Löcher (b2-b4, f3-f6, a5-a8, aber c5-c6); zwei solche
Schritte von der Startreihe (b2-b5), en passant; schlagen ein Feld
schräg vorwärts, ohne Herumführen; Umwandlung auf Reihe 10-12 (Schwarz
3-1) in Q R B N C M: g9-g10=Q, b4xc3=Q.
Remis (M6): Patt, dreimalige Wiederholung, 50 Züge, nackte Könige.

Notation (M7): Figurenbuchstabe, Startfeld, "-" oder "x", Zielfeld:
Nb1-c3, Qe1xe5, b2-b4, c4xd5, g9-g10=Q; ein Teleport ist der einfache
Zug, Nc3-i10. Kurzformen gelten, wenn sie nur auf einen Zug passen:
Nc3, Nbc3, b4, bxc3. Groß-/Kleinschreibung, Leerzeichen und
Schachzeichen sind egal.`,
		`Baltic Sea Chess (rulings B1-B6)

Aim: score 3 victory points, or leave your opponent a single piece
(B4.4). White starts on ranks 1-2, Black on ranks 7-8 (B4.5).

Pieces (B2), moving one square unless said otherwise:
  C cockle   diagonally forward
  S starfish forward, or diagonally in any of the four directions
  L seal     a knight's leap, jumping over anything
  G gull     left, right, forward or back
Upper case letters are White's, lower case Black's.

Stacks (B3): move onto an opposing piece and you go on top; the stack
is now yours and moves by the animal on top ("S2" = a stack of 2
discs, a White starfish on top). Never onto your own piece, never
a stack of 4, and a stack is never split.

Points (B4): a stack of exactly 3 scores 1 point, and so does any
piece reaching the far rank (both at once: still 1). The piece that
scored leaves the board. No legal move on your turn loses.

Ruleset sc2022 (B5, --rules sc2022): the Software Challenge 2022
form: 8 pieces shuffled on the home rank from the game's seed; any
stack of 3 or more scores; seals do not score on the far rank; both
at once score 2; the game ends after a full round in which someone
has 2 points, or after round 30; then more points win, and on a tie
the light pieces (not seals) further from home win.

Notation (B6): b1-c2 onto an empty square, b1xc2 onto an opposing
piece; the record adds the points: d7-d8+1, c7xd8+2. You may also
write b1c2 or "b1 c2".`: `Baltic Sea Chess (Regeln B1-B6)

Ziel: 3 Siegpunkte erreichen oder dem Gegner nur eine Figur lassen
(B4.4). Weiß beginnt auf den Reihen 1-2, Schwarz auf den Reihen 7-8
(B4.5).

Figuren (B2), die ein Feld ziehen, wenn nicht anders gesagt:
  C Herzmuschel  schräg vorwärts
  S Seestern     vorwärts oder schräg in jede der vier Richtungen
  L Robbe        ein Springersprung, über alles hinweg
  G Möwe         nach links, rechts, vorwärts oder zurück
Großbuchstaben sind die Figuren von Weiß, Kleinbuchstaben die von
Schwarz.

Stapel (B3): ziehen Sie auf eine gegnerische Figur, kommen Sie oben
darauf; der Stapel gehört nun Ihnen und zieht wie das oberste Tier ("S2"
= ein Stapel aus 2 Scheiben, ein weißer Seestern oben). Nie auf eine
eigene Figur, nie ein Stapel aus 4, und ein Stapel wird nie geteilt.

Punkte (B4): ein Stapel aus genau 3 bringt 1 Punkt, ebenso jede Figur,
die die ferne Reihe erreicht (beides zugleich: trotzdem 1). Die Figur,
die gepunktet hat, verlässt das Brett. Wer am Zug keinen regelgemäßen
Zug hat, verliert.

Regelwerk sc2022 (B5, --rules sc2022): die Form der Software Challenge
2022: 8 Figuren, aus dem Startwert der Partie gemischt auf der
Grundreihe; jeder Stapel aus 3 oder mehr punktet; Robben punkten nicht
auf der fernen Reihe; beides zugleich bringt 2; die Partie endet nach
einer vollen Runde, in der jemand 2 Punkte hat, oder nach Runde 30;
dann gewinnen mehr Punkte, und bei Gleichstand gewinnen die leichten
Figuren (nicht Robben), die weiter von zu Hause entfernt sind.

Notation (B6): b1-c2 auf ein leeres Feld, b1xc2 auf eine gegnerische
Figur; der Partieverlauf fügt die Punkte an: d7-d8+1, c7xd8+2. Sie
dürfen auch b1c2 oder "b1 c2" schreiben.`,
		`Chess-Battle (Yurgelevich, 1933): mate the enemy headquarter (C5).
Board: a 128-square cross, ranks 1-2 and 11-12 only on files c-j (C1.1).
White (ranks 1-3) moves first; Red starts on ranks 10-12 (C1.3).

Pieces (C2):
  H headquarter  moves like a king; it is the royal piece.
  B bomber       a queen that may pass over one of its own pieces per
                 move, never over an enemy one.
  T tank         one or two squares along a rank or file; cannot be
                 taken by a machine-gun, cavalry or soldier.
  G gun          moves one square, never capturing; shoots (C3.2).
  M machine-gun  moves one square, never capturing; shoots (C3.3).
  C cavalry      leaps (1,2), (1,3) or (2,3), like a long knight.
  S soldier      one square any way; from a light square also two in a
                 straight line over an empty square. Captures only one
                 square sideways, forward or diagonally forward.
Shots (C3): the shooter stays and removes one enemy piece over empty
squares: a gun up to 5 squares left, right, forward or diagonally
forward; a machine-gun up to 3 any way, never at a tank. A headquarter
in a line of fire is in check (C3.4).
Far end (C4): a soldier reaching the last rank leaves the board and you
remove one enemy piece of your choice, not the headquarter.
A missing square ends every line; only cavalry leaps cross gaps (C1.5).
Draws (C5): stalemate, threefold repetition, 50 moves each without
capture, shot or soldier move.

Notation (C6):
  Cd1-e4   a move          Bf1xf7   a capture
  Sd3-d4   soldiers too    Gc1!c6   a shot at c6
  Sd11-d12^h9   a soldier arrives; you remove the piece on h9
  Sd11xe12^h9   the same, capturing on e12
Short forms such as Sd4 or G!c6 work when only one move fits.
`: `Chess-Battle (Yurgelevich, 1933): das feindliche Hauptquartier
mattsetzen (C5). Brett: ein Kreuz aus 128 Feldern, die Reihen 1-2 und
11-12 nur auf den Linien c-j (C1.1). Weiß (Reihen 1-3) zieht zuerst;
Rot beginnt auf den Reihen 10-12 (C1.3).

Figuren (C2):
  H Hauptquartier   zieht wie ein König; es ist die königliche Figur.
  B Bomber          eine Dame, die je Zug über eine eigene Figur
                    hinwegziehen darf, nie über eine feindliche.
  T Panzer          ein oder zwei Felder auf Reihe oder Linie; kann
                    nicht von MG, Kavallerie oder Soldat geschlagen
                    werden.
  G Geschütz        zieht ein Feld, schlägt nie; schießt (C3.2).
  M MG              Maschinengewehr: zieht ein Feld, schlägt nie;
                    schießt (C3.3).
  C Kavallerie      springt (1,2), (1,3) oder (2,3), wie ein langer
                    Springer.
  S Soldat          ein Feld in jede Richtung; von einem hellen Feld
                    auch zwei gerade über ein leeres Feld. Schlägt nur
                    ein Feld seitwärts, vorwärts oder schräg vorwärts.
Schüsse (C3): der Schütze bleibt stehen und entfernt eine feindliche
Figur über leere Felder: ein Geschütz bis 5 Felder nach links, rechts,
vorwärts oder schräg vorwärts; ein MG bis 3 in jede Richtung,
nie auf einen Panzer. Ein Hauptquartier in einer Schusslinie steht im
Schach (C3.4).
Ferne Reihe (C4): ein Soldat, der die letzte Reihe erreicht, verlässt
das Brett, und Sie entfernen eine feindliche Figur Ihrer Wahl, nicht das
Hauptquartier.
Ein fehlendes Feld beendet jede Linie; nur Kavalleriesprünge
überqueren Lücken (C1.5).
Remis (C5): Patt, dreimalige Wiederholung, 50 Züge jeder Seite ohne
Schlagen, Schuss oder Soldatenzug.

Notation (C6):
  Cd1-e4   ein Zug          Bf1xf7   ein Schlag
  Sd3-d4   auch Soldaten    Gc1!c6   ein Schuss auf c6
  Sd11-d12^h9   ein Soldat kommt an; Sie entfernen die Figur auf h9
  Sd11xe12^h9   dasselbe, mit Schlag auf e12
Kurzformen wie Sd4 oder G!c6 gelten, wenn nur ein Zug passt.
`,
		`Transporter Chess: checkmate the enemy Admiral. Black moves first.
The board has 84 squares; your camp is your first two ranks (T1).
Pieces (T2), White upper case, Black lower case on the board:
 A Admiral: a king, or two squares straight over an empty square
 C Commodore: moves as a bishop; captures only along ranks and
   files, jumping exactly one piece (a cannon)
 R Commander: a rook          B Assistant: a bishop
 M First Mate: one square any way, but not capturing sideways
 D Advisor: a king, or two squares diagonally over an empty square
 F Fighter: one square diagonally forward, two on its first move;
   captures one square straight forward
 S Super Fighter: one square diagonally any way; captures one
   square left, right or forward
 I Interference: moves to any empty square of its own rank. It is
   never captured and blocks every piece and every check (T3).
Transporters a3 a8 j3 j8 (T4): a piece ending its move there goes at
once to a free transporter square on the same file or rank (never
back where it started); you choose if both are free, it stays if
neither is. Write the square reached after "@": Rd3-a3@a8. If only
one is free you may leave it out.
Promotion (T5), compulsory, once in a piece's life, on arriving in
the enemy camp: F becomes S, S becomes M, M becomes D: Fc8-d9=S.
End (T6): checkmate wins; a side with no legal move loses (there is
no stalemate); a side left with only its Admiral (and Interference)
loses. Draw after 50 moves each without capture or Fighter move,
or on threefold repetition.
Notation (T7): Rd1-d7, Cd4xd8, Fb2-c3, Id5-h5, Rd3-a3@a8, Fc8-d9=S.
Case, spaces, "-" and "x" are optional; Ra3@a8 works when only one
Commander can go there.
`: `Transporter Chess: setzen Sie den feindlichen Admiral matt. Schwarz
zieht zuerst. Das Brett hat 84 Felder; Ihr Lager sind Ihre ersten zwei
Reihen (T1).
Figuren (T2), Weiß in Groß-, Schwarz in Kleinbuchstaben auf dem Brett:
 A Admiral: ein König, oder zwei Felder gerade über ein leeres Feld
 C Kommodore: zieht wie ein Läufer; schlägt nur auf Reihen und
   Linien, über genau eine Figur springend (eine Kanone)
 R Kommandant: ein Turm          B Assistent: ein Läufer
 M Erster Maat: ein Feld in jede Richtung, schlägt aber nicht
   seitwärts
 D Berater: ein König, oder zwei Felder schräg über ein leeres Feld
 F Kämpfer: ein Feld schräg vorwärts, beim ersten Zug zwei; schlägt
   ein Feld gerade vorwärts
 S Superkämpfer: ein Feld schräg in jede Richtung; schlägt ein Feld
   nach links, rechts oder vorwärts
 I Störer: zieht auf jedes leere Feld seiner eigenen Reihe. Er wird
   nie geschlagen und sperrt jede Figur und jedes Schach (T3).
Transporter a3 a8 j3 j8 (T4): eine Figur, die ihren Zug dort beendet,
geht sofort auf ein freies Transporterfeld derselben Linie oder Reihe
(nie zurück, wo sie begann); sind beide frei, wählen Sie, ist keines
frei, bleibt sie. Schreiben Sie das erreichte Feld nach "@":
Rd3-a3@a8. Ist nur eines frei, dürfen Sie es weglassen.
Umwandlung (T5), Pflicht, einmal im Leben einer Figur, beim Erreichen
des feindlichen Lagers: F wird S, S wird M, M wird D: Fc8-d9=S.
Ende (T6): Matt gewinnt; eine Seite ohne regelgemäßen Zug verliert (es
gibt kein Patt); eine Seite, der nur ihr Admiral (und der Störer)
bleibt, verliert. Remis nach 50 Zügen jeder Seite ohne Schlagen oder
Kämpferzug, oder bei dreimaliger Wiederholung.
Notation (T7): Rd1-d7, Cd4xd8, Fb2-c3, Id5-h5, Rd3-a3@a8, Fc8-d9=S.
Groß-/Kleinschreibung, Leerzeichen, "-" und "x" sind freiwillig;
Ra3@a8 genügt, wenn nur ein Kommandant dorthin ziehen kann.
`,
	})
}
