import ArgumentParser
import ChangesetKit
import Foundation

/// `changeset git merge-driver %O %A %B %P [%L]`: git's merge driver.
struct GitMergeDriverCommand: RuledCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-driver",
        abstract: "git's merge driver: merges %O (base), %A (ours) and %B (theirs) into %A.",
        discussion: """
            Exit status 0 when merged; on conflict, %A holds the merged records with each conflicting \
            record between <<<<<<< ======= >>>>>>> lines, and the status is 1. A file that cannot be \
            merged record by record (not a dataset, invalid) is merged by git merge-file as text instead.
            """
    )

    @OptionGroup var merging: MergingOptions

    @OptionGroup var rulesOptions: RulesOptions

    /// %P: the repository path picks the rules entry, not git's temporary file.
    var ruledPaths: [String?] { [path] }

    @Argument(help: "%O: the common ancestor's version (a temporary file).")
    var base: String

    @Argument(help: "%A: our version, where the result is written.")
    var ours: String

    @Argument(help: "%B: their version.")
    var theirs: String

    @Argument(help: "%P: the path in the repository (for the format and the changeset-id attribute).")
    var path: String?

    @Argument(help: "%L: the conflict marker size.")
    var markerSize: Int?

    /// Runs the driver as git does; options that do not parse fall back to
    /// git's text merge of the files after `--`, so the merge goes on.
    static func executeForGit(_ arguments: [String]) -> Never {
        do {
            var command = try CommandRules.parse(["git", "merge-driver"], arguments)
            try command.run()
            Foundation.exit(ExitStatus.same)
        } catch let status as ExitCode {
            Foundation.exit(status.rawValue)
        } catch {
            if ChangesetCommand.exitCode(for: error) == .success {
                print(ChangesetCommand.fullMessage(for: error))
                Foundation.exit(ExitStatus.same)
            }
            Diagnostics.report(ChangesetCommand.message(for: error))
            let files = Array(arguments.drop { $0 != "--" }.dropFirst())
            guard files.count >= 3 else { Foundation.exit(ExitStatus.trouble) }
            Foundation.exit(textMerge(base: files[0], ours: files[1], theirs: files[2], path: files.count > 3 ? files[3] : files[1],
                           markerSize: files.count > 4 ? boundedMarkerSize(Int(files[4])) : nil, reason: "the driver's options are wrong"))
        }
    }

    /// The longest conflict marker written. git passes `%L` from the
    /// `conflict-marker-size` attribute, which a commit can set to anything;
    /// markers are written once per conflicting line, so a size in the
    /// billions would ask for gigabytes. Past this, the longest is used.
    static let longestMarker = 1000

    /// `size` within 1...longestMarker (nil stays git's default, 7).
    static func boundedMarkerSize(_ size: Int?) -> Int? {
        size.map { min(max($0, 1), longestMarker) }
    }

    /// git's own line merge (`git merge-file`), into OURS; the exit status git expects.
    static func textMerge(base: String, ours: String, theirs: String, path: String, markerSize: Int?, reason: String) -> Int32 {
        Diagnostics.report("\(path): not merged record by record (\(reason)); merging it as text")
        if [base, ours, theirs].contains(where: { InputCompression.of(file: $0) != nil }) {
            return compressedTextMerge(base: base, ours: ours, theirs: theirs, path: path, markerSize: markerSize)
        }
        let merged = try? Git.run(
            ["merge-file", "--marker-size=\(markerSize ?? 7)", "-L", "ours", "-L", "base", "-L", "theirs", ours, base, theirs],
            allowFailure: true)
        guard let merged else { return ExitStatus.trouble }
        return merged.status == 0 ? ExitStatus.same : ExitStatus.different
    }

    /// `git merge-file` on the decompressed text, the result written into
    /// OURS compressed as OURS is: merged as they are, the compressed bytes
    /// would be cut and spliced as lines into a file no tool can read. A file
    /// that cannot be decompressed leaves OURS as it is, a conflict to settle
    /// by hand.
    private static func compressedTextMerge(base: String, ours: String, theirs: String, path: String, markerSize: Int?) -> Int32 {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("changeset-merge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var plain: [String] = []
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            for (file, side) in [(base, "base"), (ours, "ours"), (theirs, "theirs")] {
                let bytes = try InputBytes.contents(of: file)
                let copy = directory.appendingPathComponent(side)
                try Data(try bytes.copy(0..<bytes.count)).write(to: copy)
                plain.append(copy.path)
            }
        } catch {
            Diagnostics.report("\(path): not merged as text either (\(error)); ours is left as it is, to settle by hand")
            return ExitStatus.different
        }
        // merge-file's status: 0 merged, 1 to 127 the number of conflicts, negative (255) trouble.
        guard let merged = try? Git.run(
            ["merge-file", "--marker-size=\(markerSize ?? 7)", "-L", "ours", "-L", "base", "-L", "theirs", plain[1], plain[0], plain[2]],
            allowFailure: true), merged.status < 128,
              let result = FileManager.default.contents(atPath: plain[1]) else { return ExitStatus.trouble }
        do {
            try OutputTargets.deliver(to: ours) { stream in stream.write(bytes: result) }
        } catch {
            return ExitStatus.trouble
        }
        return merged.status == 0 ? ExitStatus.same : ExitStatus.different
    }

    func run() throws {
        let markerSize = Self.boundedMarkerSize(self.markerSize)
        var merging = self.merging
        merging.matching.id = path.flatMap { GitAttributes.id(for: $0, given: merging.matching.id) } ?? merging.matching.id
        let label = path ?? ours
        if let marked = [base, ours, theirs].first(where: { GitFileContent.hasConflictMarkers($0, size: markerSize ?? 7) }) {
            // Marker lines would be read as records and merged away as data.
            throw ExitCode(Self.textMerge(base: base, ours: ours, theirs: theirs, path: label, markerSize: markerSize,
                                          reason: "\(marked == ours ? "ours" : marked == theirs ? "theirs" : "the base") holds conflict markers"))
        }
        guard merging.matching.id != nil else {
            // Records matched by content cannot tell an edit from a replacement.
            throw ExitCode(Self.textMerge(base: base, ours: ours, theirs: theirs, path: label, markerSize: markerSize,
                                          reason: "no changeset-id attribute or rules file entry names its id"))
        }
        var options: MergeOptions
        do {
            options = try merging.mergeOptions(format: GitAttributes.format(of: path))
        } catch {
            throw ExitCode(Self.textMerge(base: base, ours: ours, theirs: theirs, path: label, markerSize: markerSize,
                                          reason: LibraryErrorWording.text(of: error)))
        }
        if let path {
            // git's temporary files (.merge_file_XXXXXX) mean nothing to the user; the path and the side do.
            options.baseName = "\(path) (BASE)"
            options.oursName = "\(path) (OURS)"
            options.theirsName = "\(path) (THEIRS)"
        }
        let markers = MergeWriter.Markers(ours: "ours", theirs: "theirs", size: markerSize ?? 7)
        let status: Int32
        do {
            status = try MergeCommand.merge(base: base, ours: ours, theirs: theirs, options: options,
                                        output: ours, conflictsFile: nil, markers: markers)
        } catch let exit as ExitCode where exit.rawValue == ExitStatus.trouble {
            // Not a dataset (or an invalid one): git's own line merge, so the merge goes on.
            throw ExitCode(Self.textMerge(base: base, ours: ours, theirs: theirs, path: label, markerSize: markerSize,
                                          reason: "see above"))
        }
        throw ExitCode(status)
    }
}
