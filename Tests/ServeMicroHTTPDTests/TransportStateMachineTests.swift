import Foundation
import NukeServe
import Testing

@testable import ServeMicroHTTPD

/// The transport's state machine as plain values (connections are integers).
@Suite struct TransportStateMachineTests {
    typealias Machine = TransportStateMachine<Int>

    private let request = ServeRequest(method: "GET", path: "/a")

    /// "<status> close" or "<status> keep-alive" for a response to queue, nil for other actions.
    private func status(of action: Machine.CallAction) -> String? {
        if case .respond(let response, let closing) = action {
            return "\(response.status) \(closing ? "close" : "keep-alive")"
        }
        return nil
    }

    @Test func anAcceptedRequestSuspendsRunsItsHandlerAndIsResumedOnce() {
        var machine = Machine()
        let id = machine.requestStarted()
        #expect(machine.requestsInFlight == 1)
        guard case .readHead = machine.requestReceived(id, connection: 7) else {
            Issue.record("no readHead")
            return
        }
        #expect(machine.headRead(id, request: request, refusal: nil, hasBody: false) == nil)
        guard case .startHandler(let started) = machine.requestReceived(id, connection: 7) else {
            Issue.record("the handler did not start")
            return
        }
        #expect(started.path == "/a")
        guard case .stayWaiting = machine.requestReceived(id, connection: 7) else {
            Issue.record("a call while the handler runs must keep the connection suspended")
            return
        }
        #expect(machine.handlerFinished(id, response: ServeResponse(status: 200)) == 7)
        #expect(machine.handlerFinished(id, response: ServeResponse(status: 200)) == nil)
        #expect(status(of: machine.requestReceived(id, connection: 7)) == "200 keep-alive")
        guard case .close = machine.requestReceived(id, connection: 7) else {
            Issue.record("no close")
            return
        }
        #expect(machine.requestCompleted(id) == false)
        #expect(machine.requestsInFlight == 0)
    }

    @Test func refusalsWithABodyAreSentAtOnceOthersOnTheNextCall() {
        var machine = Machine()
        let withBody = machine.requestStarted()
        let withoutBody = machine.requestStarted()
        _ = machine.requestReceived(withBody, connection: 1)
        _ = machine.requestReceived(withoutBody, connection: 2)
        let refusal = ServeResponse(status: 413)
        #expect(machine.headRead(withBody, request: request, refusal: refusal, hasBody: true)?.status == 413)
        #expect(
            machine.headRead(withoutBody, request: request, refusal: ServeResponse(status: 405), hasBody: false) == nil)
        #expect(status(of: machine.requestReceived(withoutBody, connection: 2)) == "405 keep-alive")
        guard case .close = machine.requestReceived(withBody, connection: 1) else {
            Issue.record("no close")
            return
        }
    }

    @Test func shutdownDrainsThenAnswersRunningHandlersWith503() {
        // Given one request whose handler runs and one that is accepted but not yet started
        var machine = Machine()
        let running = machine.requestStarted()
        let late = machine.requestStarted()
        for id in [running, late] {
            _ = machine.requestReceived(id, connection: id)
            _ = machine.headRead(id, request: request, refusal: nil, hasBody: false)
        }
        guard case .startHandler = machine.requestReceived(running, connection: running) else {
            Issue.record("the handler did not start")
            return
        }

        // When shutdown drains, and a second shutdown call arrives
        #expect(machine.shutdownRequested() == .drain)
        #expect(machine.shutdownRequested() == .wait)

        // Then the grace period's end resumes only the suspended connection, with a 503
        #expect(machine.stopping() == [running])
        #expect(machine.handlerFinished(running, response: ServeResponse(status: 200)) == nil)
        #expect(status(of: machine.requestReceived(running, connection: running)) == "503 close")
        #expect(status(of: machine.requestReceived(late, connection: late)) == "503 close")
        #expect(machine.requestCompleted(running) == false)
        machine.stopped()
        #expect(machine.shutdownRequested() == .done)
    }

    @Test func theLastCompletionWhileDrainingIsReported() {
        var machine = Machine()
        let first = machine.requestStarted()
        let second = machine.requestStarted()
        #expect(machine.shutdownRequested() == .drain)
        #expect(machine.requestCompleted(first) == false)
        #expect(machine.requestCompleted(second) == true)
    }

    @Test func responsesWhileDrainingCloseTheirConnection() {
        var machine = Machine()
        let id = machine.requestStarted()
        _ = machine.requestReceived(id, connection: 1)
        _ = machine.headRead(id, request: request, refusal: nil, hasBody: false)
        _ = machine.requestReceived(id, connection: 1)
        #expect(machine.shutdownRequested() == .drain)
        #expect(machine.handlerFinished(id, response: ServeResponse(status: 404)) == 1)
        #expect(status(of: machine.requestReceived(id, connection: 1)) == "404 close")
    }
}
