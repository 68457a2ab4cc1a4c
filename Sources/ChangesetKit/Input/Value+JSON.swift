/// Values from JSON text a library user holds (the readers make them from
/// files): here, in Input, because reading JSON is yajl's job.
extension Value {
    /// The value `json` holds (one JSON value, UTF-8): numbers keep their
    /// text, members their order and duplicates. Throws an `InputError`
    /// (source "JSON text") for anything else, and for arrays and objects
    /// nested past 1,000 levels, as the file readers do.
    public init(json: String) throws {
        do {
            self = try json.withBytes { try JSONValueReader.read(text: $0) }
        } catch let failure as JSONValueReader.Failure {
            throw InputError(source: "JSON text", location: nil, message: failure.description)
        }
    }
}
