/// What a checklist rule reads to judge a client, which says how sure a server can be: a
/// request shows what it carried; a sequence shows order and timing but not the person
/// behind it; launches of one client can only be told from look-alike devices by what they
/// send.
public enum SandboxChecklistEvidence: String, Sendable, CaseIterable {
    /// One request: what it carried and how it was answered.
    case request
    /// The requests of one device (its `AP-Device-Identifier`), in order, with the time
    /// between them.
    case device
    /// The polls of one authentication code, and its session's life.
    case code
    /// The requests of one client: its client credentials and the access tokens issued to them.
    case client
    /// Launches that look like one client's: the same software statement and `X-Device-Info`
    /// description, one after another in time. Two devices of the same model look alike.
    case launches
}
