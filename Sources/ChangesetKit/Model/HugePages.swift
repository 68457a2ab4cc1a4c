import Foundation

/// Transparent huge pages for big tables read and written at random places.
enum HugePages {
    /// The huge page size on x86-64 and arm64 Linux.
    static let size = 2 << 20

    /// Asks the kernel to back the whole 2 MiB pages inside `memory` with
    /// huge pages (`madvise(MADV_HUGEPAGE)`), before they are first written.
    /// Only for memory of 8 MiB or more, where a table's random accesses
    /// outrun the TLB; a hint, so a system without transparent huge pages
    /// (or with them turned off) just goes on with small pages.
    static func advise(_ memory: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard memory.count >= 8 << 20, let base = memory.baseAddress else { return }
        let start = (Int(bitPattern: base) + size - 1) & ~(size - 1)
        let end = (Int(bitPattern: base) + memory.count) & ~(size - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, Int32(MADV_HUGEPAGE))
        #endif
    }
}
