import Foundation
import Testing

/// changeset as git's diff and merge driver, checked with real git in
/// scratch repositories (HOME points into the scratch folder, so no user or
/// system configuration takes part).
@Suite struct GitDriverTests {
    /// A scratch repository with its own HOME.
    struct Repository {
        let root: URL
        let home: URL

        init() throws {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-git-\(UUID().uuidString)")
            root = scratch.appendingPathComponent("repo")
            home = scratch.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            try git("init", "-q", "-b", "main")
            try git("config", "user.email", "test@example.com")
            try git("config", "user.name", "Test")
        }

        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path
            environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
            environment["GIT_CONFIG_NOSYSTEM"] = "1"
            environment["GIT_PAGER"] = "cat"
            environment["NO_COLOR"] = "1"
            return environment
        }

        @discardableResult
        func git(_ arguments: String...) throws -> CommandResult {
            try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["git"] + arguments, in: root, environment: environment)
        }

        func changeset(_ arguments: String...) throws -> CommandResult {
            try runProcess(changesetBinary, arguments, in: root, environment: environment)
        }

        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }

        /// `text` gzip-compressed (gzip -n) into `path`.
        func writeGzip(_ path: String, _ text: String) throws {
            try write(path + ".plain", text)
            let zipped = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "gzip -n -c \"$0.plain\" > \"$0\" && rm \"$0.plain\"", path],
                                        in: root, environment: environment)
            #expect(zipped.status == 0, "\(zipped)")
        }

        /// `text` zstd-compressed into `path`, by changeset itself (a merge of
        /// a file with itself is that file, written as its name says).
        func writeZstd(_ path: String, _ text: String, id: String = "sku") throws {
            try write(path + ".plain.csv", text)
            let made = try changeset("merge", path + ".plain.csv", path + ".plain.csv", path + ".plain.csv", "--id", id, "-o", path)
            #expect(made.status == 0, "\(made)")
            try FileManager.default.removeItem(at: root.appendingPathComponent(path + ".plain.csv"))
        }

        func read(_ path: String) throws -> String {
            try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        }

        /// `path` as BASE committed on main, then THEIRS's edit on branch
        /// `theirs` and OURS's on main, which is checked out.
        func branches(_ path: String, base: String, ours: String, theirs: String) throws {
            try write(path, base)
            try commit("base")
            try git("checkout", "-q", "-b", "theirs")
            try write(path, theirs)
            try commit("theirs")
            try git("checkout", "-q", "main")
            try write(path, ours)
            try commit("ours")
        }

        func commit(_ message: String) throws {
            try git("add", "-A")
            let result = try git("commit", "-q", "-m", message)
            #expect(result.status == 0, "\(result)")
        }
    }

    static let inventory = """
        sku,name,price,stock
        A1,apple,1.00,10
        B2,pear,2.00,20
        C3,plum,3.00,30
        D4,kiwi,4.00,40

        """


    @Test func adjacentRowEditsConflictInGitAndMergeCleanlyWithTheDriver() throws {
        let repository = try Repository()
        let ours = Self.inventory.replacingOccurrences(of: "C3,plum,3.00,30", with: "C3,plum,3.30,30")
        let theirs = Self.inventory.replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.00,25")
        try repository.branches("data.csv", base: Self.inventory, ours: ours, theirs: theirs)

        let plain = try repository.git("merge", "--no-edit", "theirs")
        #expect(plain.status != 0 && plain.stdout.contains("CONFLICT"), "git alone should conflict: \(plain)")
        try repository.git("merge", "--abort")

        let setup = try repository.changeset("git", "setup", "--id", "sku", "*.csv")
        #expect(setup.status == 0, "\(setup)")
        #expect(try repository.read(".gitattributes") == "*.csv diff=changeset merge=changeset changeset-id=sku\n")
        try repository.commit("use changeset for CSV files")

        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status == 0, "\(merged)")
        #expect(try repository.read("data.csv") == Self.inventory
            .replacingOccurrences(of: "C3,plum,3.00,30", with: "C3,plum,3.30,30")
            .replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.00,25"))
    }

    /// Two branches edit different records of a pretty-printed JSON file
    /// (Python's indent=4, non-ASCII escaped): git's own text merge gets it
    /// right, and the driver must give the same bytes, so that the merge
    /// commit's diff shows only the edits.
    @Test func aMergeOfAPrettyPrintedJSONFileWithTheDriverIsPlainGitsResult() throws {
        let repository = try Repository()
        func layout(_ name: String) throws -> String {
            try String(contentsOf: fixtures.appendingPathComponent("layout/\(name)"), encoding: .utf8)
        }
        try repository.branches(
            "cities.json", base: try layout("python4-base.json"), ours: try layout("python4-ours.json"), theirs: try layout("python4-theirs.json"))
        let plain = try repository.git("merge", "--no-edit", "theirs")
        #expect(plain.status == 0, "\(plain)")
        let plainResult = try Data(contentsOf: repository.root.appendingPathComponent("cities.json"))
        try repository.git("reset", "-q", "--hard", "HEAD~1")

        #expect(try repository.changeset("git", "setup", "--id", "id", "*.json").status == 0)
        try repository.commit("use changeset for JSON files")
        #expect(try repository.git("check-attr", "merge", "cities.json").stdout == "cities.json: merge: changeset\n")
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status == 0, "\(merged)")
        #expect(try Data(contentsOf: repository.root.appendingPathComponent("cities.json")) == plainResult)
        let stat = try repository.git("diff", "--numstat", "HEAD~1", "HEAD", "--", "cities.json")
        #expect(stat.stdout == "10\t2\tcities.json\n", "only THEIRS's edits change lines: \(stat)")
    }

    @Test func theSameFieldChangedOnBothBranchesConflictsWithMarkers() throws {
        let repository = try Repository()
        try repository.write(".gitattributes", "*.csv merge=changeset changeset-id=sku\n")
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.csv").status == 0)
        let ours = Self.inventory.replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.10,20")
        let theirs = Self.inventory.replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.20,20")
        try repository.branches("data.csv", base: Self.inventory, ours: ours, theirs: theirs)
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status != 0 && merged.stdout.contains("CONFLICT"), "\(merged)")
        #expect(merged.stderr.contains("conflict: id B2, field price: base 2.00, ours 2.10, theirs 2.20"), "\(merged)")
        let file = try repository.read("data.csv")
        #expect(file.contains("<<<<<<< ours\nB2,pear,2.10,20\n=======\nB2,pear,2.20,20\n>>>>>>> theirs\n"), "\(file)")
        let status = try repository.git("status", "--porcelain")
        #expect(status.stdout.contains("UU data.csv"), "\(status)")
    }

    /// `*.json` files of `repository` go through the drivers with `--id name
    /// --records-at resources` (a datapackage.json's records), committed.
    func useDriversForDataPackages(_ repository: Repository) throws {
        #expect(try repository.changeset("git", "setup", "--id", "name", "*.json").status == 0)
        let driver = try repository.git("config", "merge.changeset.driver").stdout.trimmingCharacters(in: .newlines)
        try repository.git("config", "merge.changeset.driver",
                           driver.replacingOccurrences(of: "merge-driver --", with: "merge-driver --records-at resources --"))
        try repository.commit("use changeset for JSON files")
    }

    /// Both branches changed `created`, in the document around the records
    /// of a datapackage.json: the driver wrote OURS's file without markers,
    /// so `git add` kept OURS's value and lost THEIRS's. The file now holds
    /// both between markers, and the path is unmerged.
    @Test func aDocumentMemberChangedOnBothBranchesIsMarkedInTheFile() throws {
        let repository = try Repository()
        try useDriversForDataPackages(repository)
        var ours = DataPackage(), theirs = DataPackage()
        (ours.named, ours.created) = (true, "2024-12-01T08:00:00Z")
        (theirs.scheme, theirs.created) = ("https", "2024-12-02T09:30:00Z")
        try repository.branches("datapackage.json", base: DataPackage().text, ours: ours.text, theirs: theirs.text)
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status != 0 && merged.stdout.contains("CONFLICT"), "\(merged)")
        #expect(merged.stderr.contains("conflict: the JSON document around the records changed on both sides, member created: "
            + "base \"2024-11-03T12:00:00Z\", ours \"2024-12-01T08:00:00Z\", theirs \"2024-12-02T09:30:00Z\""), "\(merged)")
        var both = ours
        both.scheme = "https"
        #expect(try repository.read("datapackage.json") == both.textWithCreatedConflict(ours: ours.created, theirs: theirs.created))
        let status = try repository.git("status", "--porcelain")
        #expect(status.stdout.contains("UU datapackage.json"), "\(status)")
    }

    /// The same branches without the clash over `created`: the driver merges
    /// the arrays element by element and the document member by member, and
    /// gives git's own result.
    @Test func aDataPackageMergedByTheDriverIsPlainGitsResult() throws {
        let repository = try Repository()
        var ours = DataPackage(), theirs = DataPackage()
        (ours.named, ours.packageNamed) = (true, true)
        (theirs.scheme, theirs.packageScheme, theirs.created) = ("https", "https", "2024-12-02T09:30:00Z")
        try repository.branches("datapackage.json", base: DataPackage().text, ours: ours.text, theirs: theirs.text)
        let plain = try repository.git("merge", "--no-edit", "theirs")
        #expect(plain.status == 0, "\(plain)")
        let plainResult = try repository.read("datapackage.json")
        try repository.git("reset", "-q", "--hard", "HEAD~1")

        try useDriversForDataPackages(repository)
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status == 0 && merged.stderr.isEmpty, "\(merged)")
        #expect(try repository.read("datapackage.json") == plainResult)
        var both = ours
        (both.scheme, both.packageScheme, both.created) = ("https", "https", theirs.created)
        #expect(plainResult == both.text)
    }

    @Test func gitDiffAndLogShowRecordLevelChanges() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.csv").status == 0)
        try repository.write("data.csv", Self.inventory)
        try repository.commit("base")
        try repository.write("data.csv", Self.inventory
            .replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.50,20")
            .replacingOccurrences(of: "D4,kiwi,4.00,40\n", with: ""))
        let diff = try repository.git("diff")
        #expect(diff.status == 0, "\(diff)")
        #expect(diff.stdout.contains("changeset diff a/data.csv b/data.csv"), "\(diff)")
        #expect(diff.stdout.contains("0 inserted, 1 deleted, 1 updated, 0 moved, 2 unchanged"), "\(diff)")
        #expect(diff.stdout.contains("price: 2.00 -> 2.50"), "\(diff)")
        try repository.commit("change")
        let log = try repository.git("log", "-p", "--ext-diff", "--format=commit %s")
        #expect(log.status == 0, "\(log)")
        #expect(log.stdout.contains("commit change\n"), "\(log)")
        #expect(log.stdout.contains("deleted  id D4"), "\(log)")
        #expect(log.stdout.contains("new file, 4 records"), "\(log)")
    }

    /// The diff driver takes the diff's own options from the git config:
    /// a tolerance makes a small price change no update, and the memory limit
    /// is read as the diff reads it (one that is no size is said to be so).
    @Test func gitDiffHonoursTheDiffsToleranceAndMemoryLimit() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.csv").status == 0)
        try repository.write("data.csv", Self.inventory)
        try repository.commit("base")
        try repository.write("data.csv", Self.inventory
            .replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.50,20")
            .replacingOccurrences(of: "D4,kiwi,4.00,40\n", with: ""))
        let command = "'" + changesetBinary.path.replacingOccurrences(of: "'", with: "'\\''") + "'"
        try repository.git("config", "diff.changeset.command", "\(command) git-diff --tolerance price=0.6 --memory-limit 1 --")
        let tolerant = try repository.git("diff")
        #expect(tolerant.status == 0, "\(tolerant)")
        #expect(tolerant.stdout.contains("0 inserted, 1 deleted, 0 updated, 0 moved, 3 unchanged"), "\(tolerant)")
        try repository.git("config", "diff.changeset.command", "\(command) git-diff --memory-limit lots --")
        let refused = try repository.git("diff")
        #expect(refused.status == 0, "\(refused)")
        #expect(refused.stdout.contains("not compared record by record: --memory-limit \"lots\": not a size"), "\(refused)")
    }

    @Test func aFileThatIsNotADatasetFallsBackAndGitDiffGoesOn() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "*.csv").status == 0)
        try repository.write("a-broken.csv", "x,y\n1,\"open\n")
        try repository.write("b-good.csv", "x,y\n1,2\n")
        try repository.commit("base")
        try repository.write("a-broken.csv", "x,y\n1,\"still open\n")
        try repository.write("b-good.csv", "x,y\n1,3\n")
        let diff = try repository.git("diff")
        #expect(diff.status == 0, "\(diff)")
        #expect(diff.stdout.contains("not compared record by record"), "\(diff)")
        #expect(diff.stdout.contains("+1,\"still open"), "\(diff)")
        // Without an id, records are matched by content: the changed row is deleted and inserted.
        #expect(diff.stdout.contains("changeset diff a/b-good.csv b/b-good.csv"), "\(diff)")
        #expect(diff.stdout.contains("1 inserted, 1 deleted"), "\(diff)")
    }

    @Test func aFileThatIsNotADatasetIsMergedAsText() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "not", "*.csv").status == 0)
        let base = "not,a\n\"broken\n1\n2\n3\n4\n"
        try repository.branches("data.csv", base: base, ours: base.replacingOccurrences(of: "1\n", with: "one\n"),
                     theirs: base.replacingOccurrences(of: "4\n", with: "four\n"))
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stderr.contains("data.csv: not merged record by record"), "\(merged)")
        #expect(merged.stderr.contains("merging it as text"), "\(merged)")
        #expect(try repository.read("data.csv") == "not,a\n\"broken\none\n2\n3\nfour\n")
    }

    /// BASE, OURS and THEIRS of `path` as `write` puts them, committed as in `branches`.
    func compressedBranches(_ repository: Repository, _ path: String, ours: String, theirs: String,
                            write: (String, String) throws -> Void) throws {
        try write(path, Self.inventory)
        try repository.commit("base")
        try repository.git("checkout", "-q", "-b", "theirs")
        try write(path, theirs)
        try repository.commit("theirs")
        try repository.git("checkout", "-q", "main")
        try write(path, ours)
        try repository.commit("ours")
    }

    @Test func aMergeOfAGzipDatasetWritesAndCommitsGzip() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.csv.gz").status == 0)
        let ours = Self.inventory.replacingOccurrences(of: "C3,plum,3.00,30", with: "C3,plum,3.30,30")
        let theirs = Self.inventory.replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.00,25")
        try compressedBranches(repository, "data.csv.gz", ours: ours, theirs: theirs, write: repository.writeGzip)
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status == 0, "\(merged)")
        let file = repository.root.appendingPathComponent("data.csv.gz").path
        #expect(try leadingBytes(file).starts(with: gzipSignature))
        #expect(try gunzipped(file) == ours.replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.00,25"))
        // What the merge commit holds is the file in the work tree: gzip, not plain CSV.
        #expect(try repository.git("status", "--porcelain").stdout.isEmpty)
        #expect(try repository.git("diff", "--quiet", "HEAD", "--", "data.csv.gz").status == 0)
    }

    @Test func aMergeOfAZstdDatasetWritesZstd() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.csv.zst").status == 0)
        let ours = Self.inventory.replacingOccurrences(of: "C3,plum,3.00,30", with: "C3,plum,3.30,30")
        let theirs = Self.inventory.replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.00,25")
        try compressedBranches(repository, "data.csv.zst", ours: ours, theirs: theirs, write: { try repository.writeZstd($0, $1) })
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status == 0, "\(merged)")
        let file = repository.root.appendingPathComponent("data.csv.zst").path
        #expect(try leadingBytes(file) == zstdSignature)
        #expect(try readBack(file) == ours.replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.00,25"))
    }

    @Test func aConflictInAGzipDatasetLeavesGzipWithTheMarkersInside() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.csv.gz").status == 0)
        let ours = Self.inventory.replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.10,20")
        let theirs = Self.inventory.replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.20,20")
        try compressedBranches(repository, "data.csv.gz", ours: ours, theirs: theirs, write: repository.writeGzip)
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status != 0 && merged.stdout.contains("CONFLICT"), "\(merged)")
        let text = try gunzipped(repository.root.appendingPathComponent("data.csv.gz").path)
        #expect(text.contains("<<<<<<< ours\nB2,pear,2.10,20\n=======\nB2,pear,2.20,20\n>>>>>>> theirs\n"), "\(text)")
    }

    /// A compressed file that is no dataset goes to git's line merge as its
    /// text, and the result is compressed again, not the spliced gzip bytes.
    @Test func aCompressedFileMergedAsTextStaysCompressed() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.csv.gz").status == 0)
        let base = "not,a\n\"broken\n1\n2\n3\n4\n"
        try repository.writeGzip("data.csv.gz", base)
        try repository.commit("base")
        try repository.git("checkout", "-q", "-b", "theirs")
        try repository.writeGzip("data.csv.gz", base.replacingOccurrences(of: "4\n", with: "four\n"))
        try repository.commit("theirs")
        try repository.git("checkout", "-q", "main")
        try repository.writeGzip("data.csv.gz", base.replacingOccurrences(of: "1\n", with: "one\n"))
        try repository.commit("ours")
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status == 0, "\(merged)")
        #expect(merged.stderr.contains("data.csv.gz: not merged record by record"), "\(merged)")
        #expect(try gunzipped(repository.root.appendingPathComponent("data.csv.gz").path) == "not,a\n\"broken\none\n2\n3\nfour\n")
    }

    /// A cloned repository can hold a .gitattributes that links to any file;
    /// git does not follow it, and setup neither appends to nor rewrites it.
    @Test func setupRefusesASymbolicLinkForGitattributesAndWritesNothing() throws {
        let repository = try Repository()
        let outside = repository.home.appendingPathComponent("victim")
        try Data("keep me\n".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(atPath: repository.root.appendingPathComponent(".gitattributes").path,
                                                   withDestinationPath: outside.path)
        for arguments in [["git", "setup", "--id", "sku", "*.csv"], ["git", "setup", "--remove"], ["git", "setup", "--remove", "*.csv"]] {
            let result = try runProcess(changesetBinary, arguments, in: repository.root, environment: repository.environment)
            #expect(result.status == 2 && result.stdout.isEmpty, "\(result)")
            #expect(result.stderr == "changeset: \(repository.root.path)/.gitattributes is a symbolic link; git does not follow a "
                + ".gitattributes that is one, and changeset neither reads nor writes through it: nothing was written (make it a regular file)\n",
                "\(result)")
            #expect(try String(contentsOf: outside, encoding: .utf8) == "keep me\n")
            #expect(try repository.git("config", "--get-regexp", "changeset").stdout.isEmpty)
        }
    }

    /// Outside any repository, the user's own attributes file may be a link
    /// (dotfile managers make them), as git allows: setup writes its target.
    @Test func globalSetupWritesThroughALinkedAttributesFile() throws {
        let repository = try Repository()
        let target = repository.home.appendingPathComponent("dotfiles/attributes")
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("*.png binary\n".utf8).write(to: target)
        let link = repository.home.appendingPathComponent(".config/git/attributes")
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target.path)
        let result = try repository.changeset("git", "setup", "--global", "--id", "sku", "*.csv")
        #expect(result.status == 0, "\(result)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == "*.png binary\n*.csv diff=changeset merge=changeset changeset-id=sku\n")
    }

    /// Runs git in `repository`, its standard output as bytes (a path need not be UTF-8).
    func gitBytes(_ repository: Repository, _ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = repository.root
        process.environment = repository.environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](output)
    }

    /// The diff driver's header lines and its fallback's `---`/`+++` lines
    /// name each path exactly as git's own diff does: C-quoted when the name
    /// holds a control character (ESC, which would drive the terminal), a
    /// quote, a backslash or, under core.quotePath, a byte past ASCII.
    @Test func gitDiffHeadersQuotePathsAsGitDoes() throws {
        let repository = try Repository()
        let names: [[UInt8]] = [
            Array("evil\u{1B}[31mred.csv".utf8), Array("q\"uote.csv".utf8), Array("back\\slash.csv".utf8), Array("tab\there.csv".utf8),
            Array("new\nline.csv".utf8), Array("sp ace.csv".utf8), Array("café.csv".utf8), Array("latin".utf8) + [0xFF] + Array(".csv".utf8),
            Array("bell\u{07}\u{7F}.csv".utf8), Array("plain.csv".utf8),
        ]
        func write(_ name: [UInt8], _ text: String) {
            let path = repository.root.path.utf8.map { CChar(bitPattern: $0) } + [CChar(UInt8(ascii: "/"))] + name.map { CChar(bitPattern: $0) } + [0]
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            #expect(descriptor >= 0)
            let bytes = Array(text.utf8)
            #expect(Foundation.write(descriptor, bytes, bytes.count) == bytes.count)
            close(descriptor)
        }
        for name in names {
            write(name, "id,v\n1,a\n")
            write(Array("bad-".utf8) + name, "id,v\n1,\"open\n")
        }
        try repository.commit("base")
        for name in names {
            write(name, "id,v\n1,b\n")
            write(Array("bad-".utf8) + name, "id,v\n1,\"still open\n")
        }
        #expect(try repository.changeset("git", "setup", "--id", "id", "*.csv").status == 0)
        func lines(_ output: [UInt8], _ starts: [String]) -> [[UInt8]] {
            output.split(separator: 0x0A).map(Array.init).filter { line in starts.contains { line.starts(with: Array($0.utf8)) } }
        }
        for quotePath in ["true", "false"] {
            try repository.git("config", "core.quotePath", quotePath)
            let plain = lines(try gitBytes(repository, ["diff", "--no-ext-diff"]), ["diff --git ", "--- ", "+++ "])
            let ours = lines(try gitBytes(repository, ["diff"]), ["changeset diff ", "--- ", "+++ "])
            let expected = plain.map { $0.starts(with: Array("diff --git ".utf8)) ? Array("changeset diff ".utf8) + $0.dropFirst(11) : $0 }
            let headers = { (all: [[UInt8]]) in all.filter { $0.starts(with: Array("changeset diff ".utf8)) } }
            // The --- and +++ lines of the files shown as lines: the bad- ones.
            let labels = { (all: [[UInt8]]) in
                all.filter { !$0.starts(with: Array("changeset diff ".utf8)) && String(decoding: $0, as: UTF8.self).contains("bad-") }
            }
            #expect(headers(ours).count == 2 * names.count, "core.quotePath \(quotePath)")
            #expect(headers(ours) == headers(expected), "core.quotePath \(quotePath): \(headers(ours).map { String(decoding: $0, as: UTF8.self) })")
            #expect(labels(ours).count == 2 * names.count, "core.quotePath \(quotePath)")
            #expect(labels(ours) == labels(expected), "core.quotePath \(quotePath): \(labels(ours).map { String(decoding: $0, as: UTF8.self) })")
        }
        let escape = try repository.git("diff", "--", "evil\u{1B}[31mred.csv")
        #expect(escape.stdout.hasPrefix("changeset diff \"a/evil\\033[31mred.csv\" \"b/evil\\033[31mred.csv\"\n"), "\(escape)")
        #expect(!escape.stdout.contains("\u{1B}"), "\(escape)")
        let unmerged = try changeset(["git-diff", "evil\u{1B}[31m.csv"])
        #expect(unmerged.status == 0 && unmerged.stdout == "changeset: \"evil\\033[31m.csv\": unmerged, not compared\n", "\(unmerged)")
    }

    @Test func setupIsIdempotentAndRemoveUndoesIt() throws {
        let repository = try Repository()
        try repository.write(".gitattributes", "*.png binary\n")
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.csv", "data/*.json").status == 0)
        #expect(try repository.changeset("git", "setup", "--id", "code", "*.csv").status == 0)
        #expect(try repository.read(".gitattributes") == """
            *.png binary
            *.csv diff=changeset merge=changeset changeset-id=code
            data/*.json diff=changeset merge=changeset changeset-id=sku

            """)
        let attribute = try repository.git("check-attr", "changeset-id", "--", "data/x.json")
        #expect(attribute.stdout == "data/x.json: changeset-id: sku\n")
        let driver = try repository.git("config", "merge.changeset.driver")
        #expect(driver.stdout.hasSuffix(" git merge-driver -- %O %A %B %P %L\n"), "\(driver)")

        #expect(try repository.changeset("git", "setup", "--remove", "*.csv").status == 0)
        #expect(try repository.read(".gitattributes") == "*.png binary\ndata/*.json diff=changeset merge=changeset changeset-id=sku\n")
        #expect(try repository.git("config", "merge.changeset.driver").status == 0)
        #expect(try repository.changeset("git", "setup", "--remove").status == 0)
        #expect(try repository.read(".gitattributes") == "*.png binary\n")
        #expect(try repository.git("config", "merge.changeset.driver").status != 0)
        #expect(try repository.git("config", "diff.changeset.command").status != 0)
    }

    /// git runs the drivers with the PATH of whatever runs git (a GUI
    /// client, a cron job): a bare `changeset` in the config, written because
    /// setup's own PATH found it, fails there with no conflict markers.
    @Test func setupWritesTheBinarysFullPathEvenWhenPATHFindsIt() throws {
        let repository = try Repository()
        let ours = Self.inventory.replacingOccurrences(of: "C3,plum,3.00,30", with: "C3,plum,3.30,30")
        let theirs = Self.inventory.replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.00,25")
        try repository.branches("data.csv", base: Self.inventory, ours: ours, theirs: theirs)

        let folder = changesetBinary.deletingLastPathComponent().path
        var onPath = repository.environment
        onPath["PATH"] = folder + ":" + (onPath["PATH"] ?? "/usr/bin:/bin")
        // Run by name, found on PATH, as a user runs it.
        let setup = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["changeset", "git", "setup", "--id", "sku", "*.csv"],
                                   in: repository.root, environment: onPath)
        #expect(setup.status == 0, "\(setup)")
        let full = changesetBinary.resolvingSymlinksInPath().path
        let executable = full.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+:@%".contains($0) }) ? full : "'" + full + "'"
        let driver = try repository.git("config", "merge.changeset.driver").stdout
        #expect(driver == "\(executable) git merge-driver -- %O %A %B %P %L\n", "\(driver)")
        #expect(try repository.git("config", "diff.changeset.command").stdout == "\(executable) git-diff --\n")
        #expect(setup.stdout.contains("git config merge.changeset.driver '\(executable) git merge-driver -- %O %A %B %P %L'"), "\(setup)")
        // How to share the config where changeset is on every machine's PATH.
        #expect(setup.stdout.contains("to share this config across machines where changeset is on PATH"), "\(setup)")
        #expect(setup.stdout.contains("git config merge.changeset.driver 'changeset git merge-driver -- %O %A %B %P %L'\n"), "\(setup)")
        #expect(setup.stdout.contains("git config diff.changeset.command 'changeset git-diff --'\n"), "\(setup)")
        try repository.commit("use changeset for CSV files")

        // git run where PATH does not find changeset still merges record by record.
        var offPath = repository.environment
        offPath["PATH"] = (offPath["PATH"] ?? "/usr/bin:/bin").split(separator: ":").filter { $0 != folder }.joined(separator: ":")
        let merged = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["git", "merge", "--no-edit", "theirs"],
                                    in: repository.root, environment: offPath)
        #expect(merged.status == 0, "\(merged)")
        #expect(try repository.read("data.csv") == Self.inventory
            .replacingOccurrences(of: "C3,plum,3.00,30", with: "C3,plum,3.30,30")
            .replacingOccurrences(of: "B2,pear,2.00,20", with: "B2,pear,2.00,25"))
    }

    /// git hands the driver temporary copies (.merge_file_XXXXXX); an error
    /// that names one leaves the user to guess which file and which side.
    @Test func aMergeOfAnInvalidTheirsNamesThePathAndTheSideNotGitsTemporaryFile() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.csv").status == 0)
        let ours = Self.inventory.replacingOccurrences(of: "C3,plum,3.00,30", with: "C3,plum,3.30,30")
        try repository.branches("data.csv", base: Self.inventory, ours: ours, theirs: Self.inventory + "E5,\"open,5.00,50\n")
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.stderr.contains("data.csv (THEIRS)"), "\(merged)")
        #expect(!merged.stderr.contains(".merge_file_"), "\(merged)")
        // The text merge it falls back to still names the path.
        #expect(merged.stderr.contains("data.csv: not merged record by record"), "\(merged)")
    }

    /// git writes the old version to a temporary file for an external diff;
    /// the reason a file was not compared names it as git's headers do.
    @Test func gitDiffOfAnInvalidOldVersionNamesItAsGitsHeadersDo() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.csv").status == 0)
        try repository.write("data.csv", Self.inventory + "E5,\"open,5.00,50\n")
        try repository.commit("base")
        try repository.write("data.csv", Self.inventory)
        let diff = try repository.git("diff")
        #expect(diff.status == 0, "\(diff)")
        let reason = diff.stdout.split(separator: "\n").first { $0.hasPrefix("not compared record by record: ") }
        #expect(reason?.contains("a/data.csv") == true, "\(diff)")
        // git's temporary file is XXXXXX_data.csv.
        #expect(reason?.contains("_data.csv") == false, "\(diff)")
    }

    @Test func globalSetupWritesTheUsersAttributesAndConfig() throws {
        let repository = try Repository()
        let result = try repository.changeset("git", "setup", "--global", "--id", "sku", "*.csv")
        #expect(result.status == 0, "\(result)")
        let attributes = repository.home.appendingPathComponent(".config/git/attributes")
        #expect(try String(contentsOf: attributes, encoding: .utf8) == "*.csv diff=changeset merge=changeset changeset-id=sku\n")
        #expect(try repository.git("config", "--global", "diff.changeset.command").stdout.hasSuffix(" git-diff --\n"))
        // Outside any repository's own .gitattributes, the global one applies.
        #expect(try repository.git("check-attr", "changeset-id", "--", "x.csv").stdout == "x.csv: changeset-id: sku\n")
    }

    @Test func setupOutsideARepositoryIsExitTwo() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-norepo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_CEILING_DIRECTORIES"] = FileManager.default.temporaryDirectory.path
        let result = try runProcess(changesetBinary, ["git", "setup", "*.csv"], in: scratch, environment: environment)
        #expect(result.status == 2, "\(result)")
    }

    @Test func gitDiffTakesTheUnmergedFormAndAddedFiles() throws {
        let unmerged = try changeset(["git-diff", "data.csv"])
        #expect(unmerged.status == 0 && unmerged.stdout == "changeset: data.csv: unmerged, not compared\n", "\(unmerged)")
        let added = try changeset(["git-diff", "catalog/new.csv", "/dev/null", "0000000", "0", "catalog/new.csv", "abcdef1234", "100644"])
        #expect(added.status == 0, "\(added)")
        #expect(added.stdout == "changeset diff a/catalog/new.csv b/catalog/new.csv\nindex 0000000..abcdef1\nnew file, 7 records\n", "\(added)")
    }
}

extension GitDriverTests {
    @Test func gitSetupKeepsEveryLineOfACRLFAttributesFileAndRemovesOnlyItsOwnAttributes() throws {
        let repository = try GitDriverTests.Repository()
        try repository.write(".gitattributes", "*.png binary\r\n*.txt text\r\n*.csv text eol=crlf diff=changeset merge=changeset changeset-id=x\r\n")
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.json").status == 0)
        #expect(try repository.changeset("git", "setup", "--id", "sku", "*.csv").status == 0)
        #expect(try repository.read(".gitattributes") == """
            *.png binary\r
            *.txt text\r
            *.csv text eol=crlf diff=changeset merge=changeset changeset-id=sku\r
            *.json diff=changeset merge=changeset changeset-id=sku\r

            """)
        let removed = try repository.changeset("git", "setup", "--remove", "*.csv")
        #expect(removed.status == 0 && removed.stdout.contains("removed changeset's attributes from 1 line"), "\(removed)")
        #expect(try repository.read(".gitattributes") == "*.png binary\r\n*.txt text\r\n*.csv text eol=crlf\r\n*.json diff=changeset merge=changeset changeset-id=sku\r\n")
        let none = try repository.changeset("git", "setup", "--remove", "*.csv")
        #expect(none.status == 0 && none.stdout.contains("nothing removed"), "\(none)")
        #expect(try repository.changeset("git", "setup", "--remove").status == 0)
        #expect(try repository.read(".gitattributes") == "*.png binary\r\n*.txt text\r\n*.csv text eol=crlf\r\n")
        let empty = try repository.changeset("git", "setup", "")
        #expect(empty.status == 2 && empty.stderr.contains("an empty pattern"), "\(empty)")
    }

    @Test func anAbsurdConflictMarkerSizeIsCapped() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try writeFile("id,v\n1,1\n", "base.csv", in: scratch)
        try writeFile("id,v\n1,2\n", "ours.csv", in: scratch)
        try writeFile("id,v\n1,3\n", "theirs.csv", in: scratch)
        let result = try changeset(["git", "merge-driver", "--id", "id", "--", "base.csv", "ours.csv", "theirs.csv", "data.csv", "99999999999"], in: scratch)
        #expect(result.status == 1, "\(result)")
        let merged = try String(contentsOf: scratch.appendingPathComponent("ours.csv"), encoding: .utf8)
        #expect(merged.contains(String(repeating: "<", count: 1000) + " ours") && !merged.contains(String(repeating: "<", count: 1001)), "\(merged.prefix(200))")
    }

    @Test func gitDiffSaysBinaryFilesDifferAndMarkedFilesMergeAsText() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2]).write(to: scratch.appendingPathComponent("a.csv"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 3]).write(to: scratch.appendingPathComponent("b.csv"))
        let diff = try changeset(["git-diff", "data.csv", "a.csv", "1111111", "100644", "b.csv", "2222222", "100644"], in: scratch)
        #expect(diff.status == 0 && diff.stdout.hasSuffix("Binary files a/data.csv and b/data.csv differ\n"), "\(diff)")
        // A single-column CSV still holding markers from an earlier merge: merged by git merge-file, not as records.
        try writeFile("v\na\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n", "base.csv", in: scratch)
        try writeFile("v\na\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\nd\n", "ours.csv", in: scratch)
        try writeFile("v\nz\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n", "theirs.csv", in: scratch)
        let merged = try changeset(["git", "merge-driver", "--id", "v", "--", "base.csv", "ours.csv", "theirs.csv", "data.csv", "7"], in: scratch)
        #expect(merged.stderr.contains("holds conflict markers") && merged.stderr.contains("merging it as text"), "\(merged)")
        #expect(try String(contentsOf: scratch.appendingPathComponent("ours.csv"), encoding: .utf8)
            == "v\nz\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\nd\n")
    }

    @Test func gitDiffReadsACompressedDatasetAsADataset() throws {
        let result = try changeset(["git-diff", "data.json.gz", "compressed/old.json.gz", "1111111", "100644", "catalog/new.json", "2222222", "100644", "--id", "id"])
        // The report of the file it holds, under the name git gave.
        let plain = try changeset(["git-diff", "data.json.gz", "catalog/old.json", "1111111", "100644", "catalog/new.json", "2222222", "100644", "--id", "id"])
        #expect(plain.stdout.hasPrefix("changeset diff a/data.json.gz b/data.json.gz\nindex 1111111..2222222\n1 inserted, 1 deleted, 3 updated"), "\(plain)")
        #expect(result.status == 0 && result.stdout == plain.stdout && result.stderr.isEmpty, "\(result)")
    }

    /// Branches `ours` and `theirs` of `file` from `base`, merges theirs into
    /// ours (expecting the file to read `merged` after), then writes `edited`
    /// over it: git's merge output and its `git diff` of the edit.
    func mergeThenEdit(_ repository: Repository, _ file: String, base: String, ours: String, theirs: String,
                       merged: String, edited: String, sourceLocation: Testing.SourceLocation = #_sourceLocation)
        throws -> (merge: CommandResult, diff: CommandResult) {
        try repository.branches(file, base: base, ours: ours, theirs: theirs)
        let merge = try repository.git("merge", "--no-edit", "theirs")
        #expect(try repository.read(file) == merged, sourceLocation: sourceLocation)
        try repository.write(file, edited)
        return (merge, try repository.git("diff"))
    }

    /// git put a path starting with `-` among the options: the merge driver
    /// printed its help and git took OURS as merged, losing THEIRS's edit.
    @Test func aPathStartingWithADashIsAPathForBothDrivers() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "id", "*.csv").status == 0)
        let (merged, diff) = try mergeThenEdit(repository, "-dash.csv", base: "id,v\n1,1\n2,2\n", ours: "id,v\n1,1\n2,2\n3,3\n",
                                               theirs: "id,v\n1,11\n2,2\n", merged: "id,v\n1,11\n2,2\n3,3\n", edited: "id,v\n1,12\n2,2\n3,3\n")
        #expect(merged.status == 0, "\(merged)")
        #expect(diff.status == 0 && diff.stdout.contains("v: 11 -> 12"), "\(diff)")
    }

    /// A driver configured with options that do not parse: git diff still
    /// goes on (exit 0), and the merge falls back to git's text merge.
    @Test func driverOptionsThatDoNotParseNeverStopGit() throws {
        let repository = try Repository()
        #expect(try repository.changeset("git", "setup", "--id", "id", "*.csv").status == 0)
        let command = try repository.git("config", "diff.changeset.command").stdout.trimmingCharacters(in: .newlines)
        try repository.git("config", "diff.changeset.command", command.replacingOccurrences(of: "git-diff --", with: "git-diff --bogus --"))
        let driver = try repository.git("config", "merge.changeset.driver").stdout.trimmingCharacters(in: .newlines)
        try repository.git("config", "merge.changeset.driver", driver.replacingOccurrences(of: "merge-driver --", with: "merge-driver --bogus --"))
        let (merged, diff) = try mergeThenEdit(repository, "data.csv", base: "id,v\n1,1\n2,2\n3,3\n4,4\n", ours: "id,v\n1,11\n2,2\n3,3\n4,4\n",
                                               theirs: "id,v\n1,1\n2,2\n3,3\n4,44\n", merged: "id,v\n1,11\n2,2\n3,3\n4,44\n", edited: "id,v\n1,12\n")
        #expect(merged.status == 0 && merged.stderr.contains("merging it as text"), "\(merged)")
        // The bad option is said, and the change still shown, compared without it.
        #expect(diff.status == 0 && diff.stdout.contains("changeset: options not used: Unknown option '--bogus'"), "\(diff)")
        #expect(diff.stdout.contains("changeset diff a/data.csv b/data.csv") && diff.stdout.contains("updated  id 1"), "\(diff)")
    }

    /// Without an id the merge driver leaves the file to git: records
    /// matched by content would keep both edits of one row.
    @Test func withoutAnIDGitMergesAsText() throws {
        let repository = try Repository()
        let setup = try repository.changeset("git", "setup", "*.csv")
        #expect(setup.status == 0 && setup.stdout.contains("git merge stays line by line"), "\(setup)")
        #expect(try repository.read(".gitattributes") == "*.csv diff=changeset\n")
        try repository.write(".gitattributes", "*.csv diff=changeset merge=changeset\n")
        #expect(try repository.changeset("git", "setup", "--id", "id", "*.tsv").status == 0)
        try repository.branches("data.csv", base: "id,v\n1,1\n", ours: "id,v\n1,3\n", theirs: "id,v\n1,2\n")
        let merged = try repository.git("merge", "--no-edit", "theirs")
        #expect(merged.status != 0 && merged.stderr.contains("no changeset-id attribute or rules file entry names its id"), "\(merged)")
        #expect(try repository.read("data.csv").contains("<<<<<<< ours\n1,3\n"))
    }

    /// `git setup` run from a path with a space wrote it unquoted into the
    /// driver commands, and git's shell split it.
    @Test func aBinaryPathWithASpaceIsQuotedForGit() throws {
        let repository = try Repository()
        let folder = repository.home.appendingPathComponent("my tools")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("changeset")
        try FileManager.default.copyItem(at: changesetBinary, to: copy)
        let setup = try runProcess(copy, ["git", "setup", "--id", "id", "*.csv"], in: repository.root, environment: repository.environment)
        #expect(setup.status == 0, "\(setup)")
        try repository.write("data.csv", "id,v\n1,1\n")
        try repository.commit("base")
        try repository.write("data.csv", "id,v\n1,2\n")
        let diff = try repository.git("diff")
        #expect(diff.status == 0 && diff.stdout.contains("v: 1 -> 2"), "\(diff)")
    }
}
