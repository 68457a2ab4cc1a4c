import ChangesetKit
import Foundation

// changeset-bench: the benchmark's helper, built in release mode by
// scripts/benchmark.py:
//
//   changeset-bench generate N DIR   deterministic snapshot pairs of N records in
//                                    JSON, NDJSON and CSV (old.* and new.*)
//   changeset-bench engine N         the engine alone on N records, in process, beside
//                                    a plain reference (best of 5): mixed, reversed, shuffled
//   changeset-bench read FILE [P]    one file read with --id id, in P parts at once (best of 3)
//   changeset-bench stream N DIR [F] the same kind of pair written as it is made, for sizes that
//                                    do not fit in memory: F a comma list of csv, ndjson (default csv)
//
// The catalogue: id, title, author, category, price, pages, in_stock,
// published. NEW is OLD with 1% deleted, 1% inserted, 2% updated, 0.5% moved
// and 0.5% moved to another category, spread evenly by a fixed seed.

struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

struct Book {
    var id: Int
    var title: String
    var author: String
    var category: Int
    var priceCents: Int
    var pages: Int
    var inStock: Bool
    var published: String
}

let categories = ["fiction", "science", "history", "poetry", "travel", "cooking", "children", "biography", "art", "music"]
let words = ["silent", "river", "garden", "empire", "winter", "glass", "shadow", "golden", "north", "paper",
             "stone", "harbor", "lantern", "orchard", "falcon", "meadow", "copper", "velvet", "thunder", "island"]
let names = ["Ada Moreau", "Jonas Berg", "Lena Okafor", "Mateo Silva", "Priya Raman", "Tomas Novak",
             "Yuki Tanaka", "Chloe Martin", "Omar Haddad", "Sofia Rossi", "Erik Lund", "Nadia Petrova"]

/// `words`, capitalized once (not a title at a time: 100M titles are made for the largest run).
let capitalizedWords = words.map(\.capitalized)

func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

func makeBook(_ id: Int, _ random: inout Generator) -> Book {
    let title = (0..<3).map { _ in capitalizedWords.randomElement(using: &random)! }.joined(separator: " ")
    let author = names.randomElement(using: &random)!
    let category = Int.random(in: 0..<categories.count, using: &random)
    let priceCents = Int.random(in: 299...9999, using: &random), pages = Int.random(in: 48...1200, using: &random)
    let inStock = Bool.random(using: &random)
    let year = Int.random(in: 1900...2026, using: &random), month = Int.random(in: 1...12, using: &random)
    let day = Int.random(in: 1...28, using: &random)
    return Book(
        id: id, title: title + " \(id % 97)", author: author, category: category, priceCents: priceCents, pages: pages,
        inStock: inStock, published: "\(year)-\(twoDigits(month))-\(twoDigits(day))")
}

/// The 2% updated: a price up by a unit, and every other one's stock flipped.
func updated(_ book: Book, index: Int) -> Book {
    var changed = book
    changed.priceCents += 100
    if index % 2 == 0 { changed.inStock.toggle() }
    return changed
}

/// The 0.5% moved to another category.
func recategorized(_ book: Book) -> Book {
    var changed = book
    changed.category = (book.category + 1) % categories.count
    return changed
}

func snapshots(_ count: Int) -> (old: [Book], new: [Book]) {
    var random = Generator(state: 20261121)
    let old = (0..<count).map { makeBook($0 + 1, &random) }
    var new: [Book] = []
    new.reserveCapacity(count + count / 100)
    var moved: [Book] = []
    for (index, book) in old.enumerated() {
        switch index % 200 {
        case 0, 1: continue  // 1% deleted
        case 2...5: new.append(updated(book, index: index))  // 2% updated
        case 6: moved.append(book)  // 0.5% moved
        case 7: new.append(recategorized(book))  // 0.5% moved to another category
        default: new.append(book)
        }
        if index % 100 == 50 { new.append(makeBook(count + index + 1, &random)) }  // 1% inserted
    }
    // Moved records go back in elsewhere (a long jump, not a swap with a neighbour),
    // merged in one pass rather than by a thousand inserts into a large array.
    let places = moved.enumerated().map { (at: ($0.offset * 7919) % max(new.count, 1), book: $0.element) }
        .sorted { $0.at < $1.at }
    var merged: [Book] = []
    merged.reserveCapacity(new.count + moved.count)
    var next = 0
    for (index, book) in new.enumerated() {
        while next < places.count && places[next].at == index {
            merged.append(places[next].book)
            next += 1
        }
        merged.append(book)
    }
    merged.append(contentsOf: places[next...].map(\.book))
    return (old, merged)
}

func price(_ cents: Int) -> String { "\(cents / 100).\(twoDigits(cents % 100))" }

func jsonLine(_ book: Book) -> String {
    "{\"id\": \(book.id), \"title\": \"\(book.title)\", \"author\": \"\(book.author)\", \"category\": \"\(categories[book.category])\", "
        + "\"price\": \(price(book.priceCents)), \"pages\": \(book.pages), \"in_stock\": \(book.inStock), \"published\": \"\(book.published)\"}"
}

func csvLine(_ book: Book) -> String {
    "\(book.id),\(book.title),\(book.author),\(categories[book.category]),\(price(book.priceCents)),\(book.pages),\(book.inStock),\(book.published)"
}

func write(_ books: [Book], to path: String, header: String?, footer: String?, separator: String, line: (Book) -> String) throws {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    var buffer = header ?? ""
    for (index, book) in books.enumerated() {
        if index > 0 { buffer += separator }
        buffer += line(book)
        if buffer.utf8.count > 1 << 22 {
            try handle.write(contentsOf: Data(buffer.utf8))
            buffer = ""
        }
    }
    buffer += footer ?? ""
    try handle.write(contentsOf: Data(buffer.utf8))
}

func generate(_ count: Int, into directory: String) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let (old, new) = snapshots(count)
    for (name, books) in [("old", old), ("new", new)] {
        try write(books, to: "\(directory)/\(name).json", header: "[\n", footer: "\n]\n", separator: ",\n", line: jsonLine)
        try write(books, to: "\(directory)/\(name).ndjson", header: nil, footer: "\n", separator: "\n", line: jsonLine)
        try write(books, to: "\(directory)/\(name).csv", header: "id,title,author,category,price,pages,in_stock,published\n",
                  footer: "\n", separator: "\n", line: csvLine)
    }
}

/// The same catalogue and the same mix of changes, written as it is made, for
/// sizes whose records would not fit in memory (100M: about 8.5 GB of CSV a
/// side). Each book comes from a generator seeded by its id, so any book can be
/// made again when it is needed; a moved book (every 200th, at offset 6) is
/// written in the place of the moved book a third of the file before it (the
/// moved books shift round, each a long jump). Not the data `generate` makes:
/// its own truth, for its own runs.
func stream(_ count: Int, into directory: String, formats: [String]) throws {
    guard formats.allSatisfy(["csv", "ndjson"].contains) else {
        FileHandle.standardError.write(Data("changeset-bench stream: formats are csv and ndjson\n".utf8))
        exit(2)
    }
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    func book(_ id: Int) -> Book {
        var random = Generator(state: 20261125 &+ UInt64(id) &* 0x9E37_79B9_7F4A_7C15)
        return makeBook(id, &random)
    }
    // Moved books stand at indices 6, 206, 406, ...; the one written at index i is the one from index i - shift.
    let movedCount = (count + 193) / 200
    let shift = max(1, movedCount / 3)
    func movedIndex(_ slot: Int) -> Int { slot * 200 + 6 }
    for format in formats {
        let isCSV = format == "csv"
        func line(_ book: Book) -> String { isCSV ? csvLine(book) : jsonLine(book) }
        let header = format == "csv" ? "id,title,author,category,price,pages,in_stock,published\n" : ""
        for side in ["old", "new"] {
            let path = "\(directory)/\(side).\(format)"
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            var buffer = header
            func emit(_ book: Book) throws {
                buffer += line(book)
                buffer += "\n"
                if buffer.utf8.count > 1 << 22 {
                    try handle.write(contentsOf: Data(buffer.utf8))
                    buffer = ""
                }
            }
            for index in 0..<count {
                let original = book(index + 1)
                guard side == "new" else {
                    try emit(original)
                    continue
                }
                switch index % 200 {
                case 0, 1: break  // 1% deleted
                case 2...5: try emit(updated(original, index: index))  // 2% updated
                case 6:  // 0.5% moved: the moved book from a third of the file before
                    let slot = index / 200
                    try emit(book(movedIndex((slot - shift % movedCount + movedCount) % movedCount) + 1))
                case 7: try emit(recategorized(original))  // 0.5% moved to another category
                default: try emit(original)
                }
                if side == "new" && index % 100 == 50 { try emit(book(count + index + 1)) }  // 1% inserted
            }
            try handle.write(contentsOf: Data(buffer.utf8))
            try handle.close()
        }
    }
}

/// What the engine sees of a record in the command: an id and a fingerprint.
struct Item: Identifiable, Equatable {
    let id: Int
    let fingerprint: UInt64
}

/// What anyone would write in an afternoon: a `Dictionary` from id to old
/// position, a pass over new, and a textbook longest increasing subsequence
/// (patience sorting with predecessor links) over the matched old positions.
/// Flat only, no checks. The engine's time is printed beside it, measured in
/// the same process, so the ratio survives a noisy machine.
func referenceDiff(old: [Item], new: [Item]) -> (inserted: Int, deleted: Int, updated: Int, moved: Int) {
    var position: [Int: Int] = [:]
    position.reserveCapacity(old.count)
    for (index, item) in old.enumerated() { position[item.id] = index }
    var matched: [Int] = []
    var inserted = 0
    var updated = 0
    for item in new {
        guard let index = position[item.id] else {
            inserted += 1
            continue
        }
        if old[index] != item { updated += 1 }
        matched.append(index)
    }
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: matched.count)
    for (index, value) in matched.enumerated() {
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if matched[tails[middle]] < value { low = middle + 1 } else { high = middle }
        }
        if low > 0 { previous[index] = tails[low - 1] }
        if low == tails.count { tails.append(index) } else { tails[low] = index }
    }
    return (inserted, old.count - matched.count, updated, matched.count - tails.count)
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// Best of `runs` for each closure, the runs interleaved so noise hits both alike.
func bestOf(_ runs: Int, _ first: () throws -> Void, _ second: () throws -> Void) rethrows -> (Double, Double) {
    let clock = ContinuousClock()
    var best = (Double.infinity, Double.infinity)
    for _ in 0..<runs {
        best.0 = min(best.0, milliseconds(try clock.measure(first)))
        best.1 = min(best.1, milliseconds(try clock.measure(second)))
    }
    return best
}

/// One line: the engine's best time, the reference's, their ratio, and what both found.
func engineCase(_ name: String, old: [Item], new: [Item], runs: Int) throws -> String {
    var changeset: SectionedChangeset<Int, Item>?
    var reference = (inserted: 0, deleted: 0, updated: 0, moved: 0)
    let (engine, plain) = try bestOf(runs, { changeset = try Differ.diff(from: old, to: new) },
                                     { reference = referenceDiff(old: old, new: new) })
    guard let changeset else { return "" }
    let found = (changeset.insertions.count, changeset.deletions.count, changeset.updates.count, changeset.moves.count)
    // Both compute minimal moves, so the counts must agree: a disagreement is a bug in one of them.
    guard found == (reference.inserted, reference.deleted, reference.updated, reference.moved) else {
        throw InvariantViolation(detail: "\(name): the engine found \(found), the reference \(reference)")
    }
    return String(format: "%@: engine %.1f ms, reference %.1f ms (%.2fx); ", name, engine, plain, engine / plain)
        + "\(found.0) inserted, \(found.1) deleted, \(found.2) updated, \(found.3) moved"
}

func engine(_ count: Int) throws {
    let (oldBooks, newBooks) = snapshots(count)
    func item(_ book: Book) -> Item {
        Item(id: book.id, fingerprint: UInt64(book.priceCents) &* 31 &+ (book.inStock ? 1 : 0))
    }
    let old = oldBooks.map(item)
    let new = newBooks.map(item)
    func sections(_ books: [Book]) -> [ListSection<Int, Item>] {
        var grouped = categories.indices.map { ListSection<Int, Item>(id: $0, elements: []) }
        for book in books { grouped[book.category].elements.append(item(book)) }
        return grouped
    }
    let oldSections = sections(oldBooks)
    let newSections = sections(newBooks)
    print("engine, best of 5, in process (the reference: a Dictionary of ids and a textbook LIS, flat):")
    print("  " + (try engineCase("\(count) records, mixed change, flat", old: old, new: new, runs: 5)))
    var sectioned = Double.infinity
    for _ in 0..<5 {
        sectioned = min(sectioned, milliseconds(try ContinuousClock().measure { _ = try Differ.diff(from: oldSections, to: newSections) }))
    }
    print(String(format: "  %d records, mixed change, sectioned by category: engine %.1f ms", count, sectioned))
    // The all-moves cases: every record moves (reversed) or most do (shuffled).
    let small = Array(old.prefix(10_000))
    print("  " + (try engineCase("10k records reversed", old: small, new: small.reversed(), runs: 5)))
    var random = Generator(state: 7)
    print("  " + (try engineCase("10k records shuffled", old: small, new: small.shuffled(using: &random), runs: 5)))
}

/// One file read in `parts` parts (1: one reader, in this thread): best of 3.
func read(_ path: String, parts: Int) throws {
    let clock = ContinuousClock()
    var best = Duration.seconds(1000)
    var records = 0
    for _ in 0..<3 {
        best = min(best, try clock.measure {
            let input = try InputFile.open(path)
            let options = RecordOptions(id: [FieldPath(["id"])], mode: input.format.isJSON ? .typed : .text)
            records = try input.readRecords(options, parts: parts).count
        })
    }
    print("read \(path) in \(parts) part\(parts == 1 ? "" : "s"): \(records) records in \(best) (best of 3)")
}

let arguments = CommandLine.arguments
if (arguments.count == 3 || arguments.count == 4) && arguments[1] == "read" {
    try read(arguments[2], parts: arguments.count == 4 ? Int(arguments[3]) ?? 1 : 1)
    exit(0)
}
guard arguments.count >= 3, let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: changeset-bench generate N DIR | stream N DIR [FORMATS] | engine N | read FILE [PARTS]\n".utf8))
    exit(2)
}
switch arguments[1] {
case "generate" where arguments.count == 4: try generate(count, into: arguments[3])
case "stream" where arguments.count == 4 || arguments.count == 5:
    try stream(count, into: arguments[3], formats: arguments.count == 5 ? arguments[4].split(separator: ",").map(String.init) : ["csv"])
case "engine": try engine(count)
default:
    FileHandle.standardError.write(Data("usage: changeset-bench generate N DIR | stream N DIR [FORMATS] | engine N | read FILE [PARTS]\n".utf8))
    exit(2)
}
