/// The finish-once core of a public task — an ``ImageTask`` or the ``DataTask`` of a `data(for:)` request — as a
/// value: the result, the callers waiting for it, and the result's hold on the pipeline's byte budget.
///
/// Its methods are called under the task's lock and return what to do once the lock is released (resume these
/// waiters, release this ticket), so both kinds of task finish the same way and the rules are tested as values.
/// Generic over the waiter so tests can use plain values; the tasks use checked continuations.
struct PublicTaskState<Output, Waiter> {
    typealias Outcome = Result<Output, ImagePipeline.Error>

    /// How the task ended, or `nil` while it runs.
    private(set) var result: Outcome?
    private var waiters = SmallList<Waiter>()
    /// The result's hold on the byte budget, kept from the finish until a waiter has received the result.
    private var ticket: ByteBudget.Ticket?

    /// What the finishing thread does after ``finish(with:holding:)``.
    struct Finish {
        /// `true` if this call finished the task (`false`: it had already finished, and nothing else changed).
        let isFinished: Bool
        /// The waiters to resume with the result.
        let waiters: SmallList<Waiter>
        /// A ticket nobody is going to hold (no waiter yet, or the task had finished): release it.
        let ticketToRelease: ByteBudget.Ticket?
    }

    /// Registers `waiter`; returns the result to resume it with now if the task has finished.
    mutating func wait(_ waiter: Waiter) -> Outcome? {
        if let result { return result }
        waiters.append(waiter)
        return nil
    }

    /// Finishes the task with `result` unless it has finished already.
    ///
    /// - Parameter ticket: The result's hold on the byte budget: kept while there are waiters to receive the
    ///   result (until ``didDeliver()``); otherwise the result is the app's at once and the ticket is returned to
    ///   be released.
    mutating func finish(with result: Outcome, holding ticket: ByteBudget.Ticket?) -> Finish {
        guard self.result == nil else {
            return Finish(isFinished: false, waiters: SmallList(), ticketToRelease: ticket)
        }
        self.result = result
        let waiters = self.waiters
        self.waiters.removeAll()
        if waiters.isEmpty {
            return Finish(isFinished: true, waiters: waiters, ticketToRelease: ticket)
        }
        self.ticket = ticket
        return Finish(isFinished: true, waiters: waiters, ticketToRelease: nil)
    }

    /// Called after a waiter received the result: returns the ticket to release (the app holds the result now).
    mutating func didDeliver() -> ByteBudget.Ticket? {
        defer { ticket = nil }
        return ticket
    }
}
