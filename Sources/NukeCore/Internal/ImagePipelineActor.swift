/// A global actor with Nuke's name, kept so code written against Nuke that isolates its own work to
/// `@ImagePipelineActor` compiles unchanged.
///
/// The pipeline itself no longer runs on it: each pipeline's task graph is serialised by a mailbox of its own that
/// runs graph work on the thread that posts it when the graph is idle (no hop to an actor's thread), and decoding,
/// processing and loading run on worker threads. Public API never requires callers to be on any actor.
@globalActor
public actor ImagePipelineActor {
    /// The actor's single instance.
    public static let shared = ImagePipelineActor()
}
