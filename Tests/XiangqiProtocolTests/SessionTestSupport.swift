import XiangqiProtocol

/// Hands `lines` to `session` one by one, each after the search the one before started has
/// answered, and returns what the session wrote meanwhile.
func run(_ session: Session, _ sink: MemorySink, _ lines: [String]) -> [String] {
    for line in lines {
        session.handle(line)
        session.waitForSearch()
    }
    return sink.take()
}
