import Foundation
import Testing

/// `scripts/install` and `scripts/package-deb`: a binary that runs without
/// Swift, with its man page and completions, and a package dpkg installs.
/// (They build in release mode into .build-install, so this suite is slow.)
@Suite(.serialized, .tags(.slow, .install)) struct InstallTests {
    static let repository = fixtures.deletingLastPathComponent()

    func shell(_ command: String, in directory: URL = InstallTests.repository) throws -> CommandResult {
        try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", command], in: directory)
    }

    /// ldd must name no library of the Swift toolchain, nor libyajl, zlib, libzstd or libsqlite3.
    func expectSelfContained(_ binary: URL) throws {
        let ldd = try shell("ldd '\(binary.path)'")
        #expect(ldd.status == 0, "\(ldd)")
        for library in ["libswift", "libFoundation", "libdispatch", "libBlocksRuntime", "libyajl", "libz.so", "libzstd", "libsqlite3"] {
            #expect(!ldd.stdout.contains(library), "the binary needs \(library):\n\(ldd.stdout)")
        }
        #expect(ldd.stdout.contains("libc.so.6"), "\(ldd)")
    }

    @Test func installPutsASelfContainedBinaryTheManPageAndCompletionsUnderThePrefix() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let prefix = scratch.appendingPathComponent("prefix")
        let install = try shell("scripts/install --prefix '\(prefix.path)'")
        #expect(install.status == 0, "\(install)")
        let binary = prefix.appendingPathComponent("bin/changeset")
        try expectSelfContained(binary)
        let version = try runProcess(binary, ["--version"])
        #expect(version.status == 0 && version.stdout == "changeset 0.1.0\n", "\(version)")
        // The installed binary does the work: a compressed input, a report.
        let diff = try runProcess(binary, ["compressed/old.json.gz", "catalog/new.json", "--id", "id", "--stat"])
        #expect(diff.status == 1 && diff.stdout.hasPrefix("1 inserted, 1 deleted, 3 updated, 1 moved, 3 unchanged\n"), "\(diff)")
        let man = try shell("MANPAGER=cat MANWIDTH=80 man -l '\(prefix.path)/share/man/man1/changeset.1'")
        #expect(man.status == 0 && man.stdout.contains("CHANGESET(1)") && man.stdout.contains("EXIT STATUS"), "\(man)")
        let bash = try shell("bash -n '\(prefix.path)/share/bash-completion/completions/changeset'")
        #expect(bash.status == 0, "\(bash)")
        // Each shell's script offers the options, in that shell's words, the merge's and setup's too.
        for (file, spelling) in [("share/bash-completion/completions/changeset", "--"), ("share/zsh/site-functions/_changeset", "--"),
                                 ("share/fish/vendor_completions.d/changeset.fish", "-l '")] {
            let text = try String(contentsOf: prefix.appendingPathComponent(file), encoding: .utf8)
            for option in ["id", "format", "rename", "prefer", "markers", "conflicts", "global"] {
                #expect(text.contains(spelling + option), "\(file) lacks \(option)")
            }
            #expect(text.contains("merge") && text.contains("apply") && text.contains("setup"), "\(file)")
        }
    }

    @Test func theDebianPackageInstallsWithDpkg() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let made = try shell("scripts/package-deb '\(scratch.path)'")
        #expect(made.status == 0, "\(made)")
        let package = scratch.appendingPathComponent("changeset_0.1.0_\(try shell("dpkg --print-architecture").stdout.trimmingCharacters(in: .whitespacesAndNewlines)).deb")
        #expect(made.stdout == package.path + "\n", "\(made)")
        let info = try shell("dpkg-deb -f '\(package.path)' Package Version Depends")
        #expect(info.stdout == "Package: changeset\nVersion: 0.1.0\nDepends: libc6 (>= 2.36), libstdc++6, libgcc-s1\n", "\(info)")
        // dpkg -i into a root of its own (an empty dpkg database), so the test leaves the system alone.
        let root = scratch.appendingPathComponent("root")
        let install = try shell("""
            mkdir -p '\(root.path)/var/lib/dpkg/info' '\(root.path)/var/lib/dpkg/updates' && touch '\(root.path)/var/lib/dpkg/status' \
            && dpkg --root='\(root.path)' --force-depends --force-script-chrootless --log=/dev/null -i '\(package.path)'
            """)
        #expect(install.status == 0, "\(install)")
        let status = try shell("dpkg --root='\(root.path)' -s changeset")
        #expect(status.stdout.contains("Status: install ok installed"), "\(status)")
        let binary = root.appendingPathComponent("usr/bin/changeset")
        try expectSelfContained(binary)
        let version = try runProcess(binary, ["--version"])
        #expect(version.stdout == "changeset 0.1.0\n", "\(version)")
        let man = try shell("MANPAGER=cat man -l '\(root.path)/usr/share/man/man1/changeset.1.gz'")
        #expect(man.status == 0 && man.stdout.contains("CHANGESET(1)"), "\(man)")
        for file in ["usr/share/bash-completion/completions/changeset", "usr/share/zsh/site-functions/_changeset",
                     "usr/share/fish/vendor_completions.d/changeset.fish"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path), "\(file)")
        }
    }
}
