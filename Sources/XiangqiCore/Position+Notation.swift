// WXF and Chinese move notation, written and read.
//
// Both name the piece, the file it stands on (numbered 1-9 from the mover's right), the
// direction (forward, backward, sideways) and then the destination file (sideways moves and
// the diagonal movers: advisor, elephant, horse) or the number of ranks moved (king, chariot,
// cannon, soldier moving straight). Two identical pieces on one file are told apart as front
// and rear (WXF `+`/`-`, Chinese 前/后); three or more soldiers follow the World Xiangqi
// Rules: front/middle/rear (WXF `+`, file digit, `-`; 前/中/后), four or five counted from
// the front (WXF `++`, `+`, digit, `-`, `--`; 一二三四五). Advisors and elephants keep their
// file number even in tandem, since the direction already tells them apart.
//
// Reading works by writing every legal move and comparing normalised text, so anything
// written here is read back, and common variants (`.` for `=`, `B`/`N` for `E`/`H`,
// traditional characters, full-width or Chinese numerals) are accepted.

extension Position {
    /// The WXF text of a legal `move`, e.g. `C2=5`, `H8+7`, `R+=3`.
    public func wxf(_ move: Move) -> String { Self.wxfText(describe(move)) }

    static func wxfText(_ d: MoveDescription) -> String {
        let letter: String
        switch d.kind {
        case .king: letter = "K"
        case .advisor: letter = "A"
        case .elephant: letter = "E"
        case .horse: letter = "H"
        case .chariot: letter = "R"
        case .cannon: letter = "C"
        case .soldier: letter = "P"
        }
        let op = d.direction > 0 ? "+" : d.direction < 0 ? "-" : "="
        let prefix: String
        switch d.tandem {
        case .none: prefix = letter + String(d.fileNumber)
        case .frontRear(let front, let count, let otherTandemFile):
            let head = otherTandemFile ? String(d.fileNumber) : letter
            switch (count, front) {
            case (2, 0), (3, 0): prefix = head + "+"
            case (2, 1), (3, 2): prefix = head + "-"
            case (3, 1): prefix = head + String(d.fileNumber)
            case (_, 0): prefix = "++"
            case (_, let i) where i == count - 1: prefix = "--"
            case (_, 1): prefix = head + "+"
            case (_, let i) where i == count - 2: prefix = head + "-"
            default: prefix = head + String(d.fileNumber)
            }
        }
        return prefix + op + String(d.amount)
    }

    /// The Chinese text of a legal `move`, e.g. `炮二平五` (red) or `马８进７` (black).
    public func chinese(_ move: Move) -> String { Self.chineseText(describe(move)) }

    static func chineseText(_ d: MoveDescription) -> String {
        let red = d.color == .red
        let names: [PieceKind: (String, String)] = [.king: ("帅", "将"), .advisor: ("仕", "士"),
            .elephant: ("相", "象"), .horse: ("马", "马"), .chariot: ("车", "车"), .cannon: ("炮", "炮"),
            .soldier: ("兵", "卒")]
        let name = red ? names[d.kind]!.0 : names[d.kind]!.1
        func number(_ n: Int) -> String {
            let chinese = ["一", "二", "三", "四", "五", "六", "七", "八", "九"]
            let fullWidth = ["１", "２", "３", "４", "５", "６", "７", "８", "９"]
            return red ? chinese[n - 1] : fullWidth[n - 1]
        }
        let op = d.direction > 0 ? "进" : d.direction < 0 ? "退" : "平"
        let prefix: String
        switch d.tandem {
        case .none: prefix = name + number(d.fileNumber)
        case .frontRear(let front, let count, let otherTandemFile):
            let tail = otherTandemFile ? number(d.fileNumber) : name
            if count <= 3 {
                let words = count == 2 ? ["前", "后"] : ["前", "中", "后"]
                prefix = words[front] + tail
            } else {
                prefix = ["一", "二", "三", "四", "五"][front] + tail
            }
        }
        return prefix + op + number(d.amount)
    }

    /// Reads a move in ICCS (`h2e2`, `H2-E2`), WXF (`C2=5`, `C2.5`) or Chinese (`炮二平五`);
    /// `nil` unless it names exactly one legal move.
    public func parseMove(_ text: String) -> Move? {
        let trimmed = text.trimmingSpaces
        if let move = Move(iccs: trimmed) { return isLegal(move) ? move : nil }
        var wanted = Self.normalizeNotation(trimmed)
        guard !wanted.isEmpty else { return nil }
        // "C25": sideways moves are sometimes written without an operator.
        if wanted.count == 3 && !wanted.contains(where: { "+-=".contains($0) }) {
            wanted.insert("=", at: wanted.index(before: wanted.endIndex))
        }
        // Every form below normalizes to four characters: two for the piece, the direction,
        // a digit. Anything else matches none, and is refused before the legal moves are
        // written out (a long `searchmoves` list of junk cost seconds).
        let characters = Array(wanted)
        guard characters.count == 4, "+-=".contains(characters[2]), ("1"..."9").contains(characters[3]) else { return nil }
        let moves = legalMoves
        // Standard forms first; the loose plain-file form of a tandem piece only if no
        // standard form matches (it can collide with a middle soldier's standard form).
        for loose in [false, true] {
            var found: Move?
            for move in moves {
                let forms = loose ? alternativeForms(move) : [wxf(move), chinese(move)]
                if forms.contains(where: { Self.normalizeNotation($0) == wanted }) {
                    if found != nil { return nil }
                    found = move
                }
            }
            if let found { return found }
        }
        return nil
    }

    // MARK: - Details

    enum Tandem {
        case none
        /// `front` is 0 for the most advanced of `count` pieces on the file.
        case frontRear(front: Int, count: Int, otherTandemFile: Bool)
    }

    struct MoveDescription {
        var color: Color
        var kind: PieceKind
        var fileNumber: Int
        var direction: Int
        var amount: Int
        var tandem: Tandem
    }

    func describe(_ move: Move) -> MoveDescription {
        let piece = board[move.from.index]
        let color = piece.color, kind = piece.kind
        let red = color == .red
        func fileNumber(_ file: Int) -> Int { red ? 9 - file : file + 1 }
        let forward = (move.to.rank - move.from.rank) * (red ? 1 : -1)
        let direction = forward > 0 ? 1 : forward < 0 ? -1 : 0
        let straight = [.king, .chariot, .cannon, .soldier].contains(kind)
        let amount = direction != 0 && straight ? abs(forward) : fileNumber(move.to.file)

        var tandem = Tandem.none
        if kind != .advisor && kind != .elephant {
            let same = pieces(of: color, kind)
            let onFile = same.filter { $0.file == move.from.file }
                .sorted { red ? $0.rank > $1.rank : $0.rank < $1.rank }
            if onFile.count > 1, let index = onFile.firstIndex(of: move.from) {
                var filesWithTandem = Set<Int>()
                for s in same where s.file != move.from.file && same.filter({ $0.file == s.file }).count > 1 {
                    filesWithTandem.insert(s.file)
                }
                tandem = .frontRear(front: index, count: onFile.count, otherTandemFile: !filesWithTandem.isEmpty)
            }
        }
        return MoveDescription(color: color, kind: kind, fileNumber: fileNumber(move.from.file),
                               direction: direction, amount: amount, tandem: tandem)
    }

    /// Other spellings seen in records: the plain file form for tandem pieces.
    private func alternativeForms(_ move: Move) -> [String] {
        var d = describe(move)
        guard case .frontRear = d.tandem else { return [] }
        d.tandem = .none
        return [Self.wxfText(d), Self.chineseText(d)]
    }

    /// Maps notation text to a canonical form: upper-case Latin letters, `=` for sideways,
    /// ASCII digits for every numeral, one character per piece kind and direction.
    static func normalizeNotation(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case " ", "\t", "\u{3000}": continue
            case ".", "．", "＝": out.append("=")
            case "＋": out.append("+")
            case "－": out.append("-")
            case "一", "１": out.append("1")
            case "二", "２": out.append("2")
            case "三", "３": out.append("3")
            case "四", "４": out.append("4")
            case "五", "５": out.append("5")
            case "六", "６": out.append("6")
            case "七", "７": out.append("7")
            case "八", "８": out.append("8")
            case "九", "９": out.append("9")
            case "帅", "帥", "将", "將", "k", "K", "g", "G": out.append("K")
            case "仕", "士", "a", "A": out.append("A")
            case "相", "象", "e", "E", "b", "B": out.append("E")
            case "马", "馬", "傌", "h", "H", "n", "N": out.append("H")
            case "车", "車", "俥", "r", "R": out.append("R")
            case "炮", "砲", "包", "c", "C": out.append("C")
            case "兵", "卒", "p", "P": out.append("P")
            case "进", "進": out.append("+")
            case "退": out.append("-")
            case "平": out.append("=")
            case "前": out.append("f")
            case "中": out.append("m")
            case "后", "後": out.append("b")
            default: out.append(ch)
            }
        }
        return out
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\r" || c == "\n" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" || c == "\n" { s.removeLast() }
        return String(s)
    }
}
