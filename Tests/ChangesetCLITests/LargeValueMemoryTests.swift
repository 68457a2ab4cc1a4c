import Foundation
import Testing

/// Memory for one large value: held whole while it is read (yajl keeps a
/// string token whole), and no more than the documented multiple of it
/// (man changeset, "Limits and defined results"). A compressed input or a
/// pipe (a stream) gathered its chunk in an array that grew by doubling,
/// copied at each step, while a long token ran on: half the value again
/// beyond what the same file took.
@Suite struct LargeValueMemoryTests {
    /// The peak resident memory of one run, in bytes (`/usr/bin/time`'s %M).
    func peak(_ command: String, in directory: URL) throws -> Int {
        var environment = ProcessInfo.processInfo.environment
        environment["CHANGESET"] = changesetBinary.path
        let result = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "/usr/bin/time -f 'peak %M' \(command) > /dev/null"],
                                    in: directory, environment: environment)
        let line = result.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }
        let kilobytes = line.flatMap { Int($0.dropFirst(5)) }
        #expect(kilobytes != nil, "\(command): \(result)")
        return (kilobytes ?? 0) * 1024
    }

    @Test func aStringOf64MBTakesAtMostTwiceItsSizeToReadFromAFileOrAStream() throws {
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let size = 64 << 20
        try Data("[{\"id\": 1, \"s\": \"\(String(repeating: "a", count: size))\"}]\n".utf8).write(to: scratch.appendingPathComponent("big.json"))
        try Data("[{\"id\": 1, \"s\": \"a\"}]\n".utf8).write(to: scratch.appendingPathComponent("small.json"))
        _ = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "gzip -c big.json > big.json.gz"], in: scratch)
        let program = try peak("\"$CHANGESET\" --version", in: scratch)
        let file = try peak("\"$CHANGESET\" big.json small.json --id id -q", in: scratch)
        let compressed = try peak("\"$CHANGESET\" big.json.gz small.json --id id -q", in: scratch)
        let piped = try peak("\"$CHANGESET\" - small.json --id id -q < big.json", in: scratch)
        #expect(file - program < 2 * size, "a file: \(file >> 20) MB, the program alone \(program >> 20) MB")
        for (name, stream) in [("gzip", compressed), ("a pipe", piped)] {
            #expect(stream < file + size / 4, "\(name): \(stream >> 20) MB, the file \(file >> 20) MB")
        }
    }
}
