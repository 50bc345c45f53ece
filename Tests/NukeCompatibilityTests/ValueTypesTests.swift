import Foundation
import Nuke
import NukeTestKit
import Testing

/// `AssetType`, `ImageContainer`, `ImageResponse`, `TaskQueue` and `ImagePipelineActor`.
@Suite struct ValueTypesTests {
    @Test func assetTypesAndSniffing() throws {
        // Given every constant
        let all: [AssetType] = [
            .png, .jpeg, .gif, .heic, .webp, .mp4, .m4v, .mov, .ico, .bmp, .tiff, .jpeg2000, .jxl, .avif,
        ]

        // Then
        #expect(Set(all).count == all.count)
        #expect(AssetType.png.rawValue == "public.png" && AssetType(rawValue: "public.png") == .png)
        let custom: AssetType = "com.example.tiny"
        #expect(custom.rawValue == "com.example.tiny")
        #expect(try AssetType(SampleImages.png()) == .png && AssetType(SampleImages.jpeg()) == .jpeg)
        #expect(AssetType(Data("hello".utf8)) == nil)
    }

    @Test func containerAndResponse() {
        // Given
        let image = Fixtures.solidImage(width: 4, height: 4, color: .init(r: 1, g: 1, b: 1))
        let key: ImageContainer.UserInfoKey = "com.example.app/frame"
        var container = ImageContainer(image: image, type: .png, isPreview: true, data: Data([1]), userInfo: [key: 3])
        container.userInfo[.scanNumberKey] = 2
        container.userInfo[ImageContainer.UserInfoKey("other")] = "x"
        container.isPreview = false

        // When
        let response = ImageResponse(
            container: container, request: ImageRequest(url: nil), urlResponse: nil, cacheType: .memory)

        // Then
        #expect(response.image == image && response.container.type == .png && !response.isPreview)
        #expect(response.cacheType == .memory && response.urlResponse == nil && response.request.url == nil)
        #expect(container.userInfo[key] as? Int == 3 && container.userInfo[.scanNumberKey] as? Int == 2)
        #expect(container.data == Data([1]) && key.rawValue == "com.example.app/frame")
        #expect(ImageResponse.CacheType.disk != .memory)
    }

    @Test func taskQueueLimitsConcurrency() {
        // Given
        let queue = TaskQueue(maxConcurrentOperationCount: 1)

        // When
        queue.isSuspended = true
        queue.maxConcurrentOperationCount = 3

        // Then
        #expect(queue.isSuspended && queue.maxConcurrentOperationCount == 3)
        queue.isSuspended = false
    }

    @Test func pipelineActorIsAGlobalActor() async {
        // Given work isolated to Nuke's global actor
        @ImagePipelineActor func isolatedWork() -> Int { 42 }

        // When / Then
        #expect(await isolatedWork() == 42)
        await ImagePipelineActor.shared.run { ImagePipelineActor.shared.assertIsolated() }
    }
}

extension ImagePipelineActor {
    fileprivate func run(_ body: @Sendable () -> Void) { body() }
}
