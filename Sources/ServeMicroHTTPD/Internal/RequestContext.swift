/// One request's record from its request line (libmicrohttpd's URI callback) to its completion notice. It travels as
/// the request's `con_cls`, retained once; the completion notice releases it. Only libmicrohttpd's callbacks use it;
/// the request's phase lives in `TransportStateMachine` under its id.
final class RequestContext {
    /// The request's id in the state machine.
    let id: Int
    /// The request target exactly as sent (still percent-encoded, with its query).
    let target: String

    init(id: Int, target: String) {
        self.id = id
        self.target = target
    }
}
