import ChangesetKit
import Testing

/// Sizes as a user writes them, and the memory a process may have.
@Suite struct ProcessFactsTests {
    @Test(arguments: [("0", 0), ("4096", 4096), ("2k", 2048), ("2KB", 2048), ("800M", 800 << 20), ("1.5G", 3 << 29), ("1T", 1 << 40), (" 3 ", 3)])
    func byteCountReadsSizes(text: String, bytes: Int) throws {
        #expect(try ProcessFacts.byteCount(parsing: text) == bytes)
    }

    @Test(arguments: ["", "G", "-1", "+5", "1e3", "0x10", "0.4", "1.2.3", "1Q", "10000000000T"])
    func byteCountRefusesWhatIsNoSize(text: String) {
        #expect(throws: ProcessFacts.NotASize(text: text)) { try ProcessFacts.byteCount(parsing: text) }
        #expect(ProcessFacts.NotASize(text: text).description.hasPrefix("\"\(text)\": not a size"))
    }

    @Test func theDefaultLimitIsHalfTheAvailableMemory() {
        #expect(ProcessFacts.availableMemory > 0)
        #expect(ProcessFacts.defaultMemoryLimit == Int(ProcessFacts.availableMemory / 2))
    }
}
