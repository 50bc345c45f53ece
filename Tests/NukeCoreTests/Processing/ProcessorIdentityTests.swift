import Foundation
import Testing

@testable import NukeCore

@Suite struct ProcessorIdentityTests {
    @Test func identifiersAreStable() {
        // The identifiers are part of disk cache keys: they must never change between releases, and they
        // use Nuke's format so that keys written by code ported from Nuke stay the same.
        #expect(
            ImageProcessors.Resize(size: CGSize(width: 100, height: 50)).identifier
                == "com.github.kean/nuke/resize?s=(100.0, 50.0),cm=.aspectFill,crop=false,upscale=false")
        #expect(
            ImageProcessors.Resize(
                size: CGSize(width: 10, height: 20), unit: .pixels, contentMode: .aspectFit, crop: true, upscale: true
            ).identifier
                == "com.github.kean/nuke/resize?s=(10.0, 20.0),cm=.aspectFit,crop=true,upscale=true")
        #expect(
            ImageProcessors.Resize(width: 320).identifier
                == "com.github.kean/nuke/resize?s=(320.0, 9999.0),cm=.aspectFit,crop=false,upscale=false")
        #expect(
            ImageProcessors.Resize(height: 64, unit: .pixels, upscale: true).identifier
                == "com.github.kean/nuke/resize?s=(9999.0, 64.0),cm=.aspectFit,crop=false,upscale=true")
        #expect(ImageProcessors.Circle().identifier == "com.github.kean/nuke/circle")
        #expect(
            ImageProcessors.Circle(border: .init(color: .init(r: 255, g: 0, b: 16), width: 2)).identifier
                == "com.github.kean/nuke/circle?border=Border(color: #FF0010, width: 2.0 pixels)")
        #expect(
            ImageProcessors.RoundedCorners(radius: 8).identifier == "com.github.kean/nuke/rounded_corners?radius=8.0")
        #expect(ImageProcessors.GaussianBlur().identifier == "com.github.kean/nuke/gaussian_blur?radius=8")
        #expect(
            ImageProcessors.Crop(rect: CGRect(x: 1, y: 2, width: 3, height: 4)).identifier
                == "com.github.kean/nuke/crop?rect=(1.0, 2.0, 3.0, 4.0)")
        #expect(ImageProcessors.Grayscale().identifier == "com.github.kean/nuke/grayscale")
    }

    @Test func identifiersAreDistinctForDistinctParameters() {
        let border = ImageProcessingOptions.Border(color: .init(r: 1, g: 2, b: 3))
        let processors: [any ImageProcessing] = [
            ImageProcessors.Resize(size: CGSize(width: 100, height: 100)),
            ImageProcessors.Resize(size: CGSize(width: 100, height: 100), contentMode: .aspectFit),
            ImageProcessors.Resize(size: CGSize(width: 100, height: 100), crop: true),
            ImageProcessors.Resize(size: CGSize(width: 100, height: 100), upscale: true),
            ImageProcessors.Resize(size: CGSize(width: 100, height: 101)),
            ImageProcessors.Resize(width: 100),
            ImageProcessors.Resize(width: 100, upscale: true),
            ImageProcessors.Resize(height: 100),
            ImageProcessors.Circle(),
            ImageProcessors.Circle(border: border),
            ImageProcessors.Circle(border: .init(color: .init(r: 1, g: 2, b: 3), width: 2)),
            ImageProcessors.Circle(border: .init(color: .init(r: 1, g: 2, b: 4))),
            ImageProcessors.Circle(border: .init(color: PlatformColor.red.withAlphaComponent(0.5))),
            ImageProcessors.RoundedCorners(radius: 4),
            ImageProcessors.RoundedCorners(radius: 5),
            ImageProcessors.RoundedCorners(radius: 4, border: border),
            ImageProcessors.GaussianBlur(radius: 4),
            ImageProcessors.GaussianBlur(radius: 5),
            ImageProcessors.GaussianBlur(radius: 0),
            ImageProcessors.Crop(rect: CGRect(x: 0, y: 0, width: 4, height: 4)),
            ImageProcessors.Crop(rect: CGRect(x: 1, y: 0, width: 4, height: 4)),
            ImageProcessors.Grayscale(),
        ]
        #expect(Set(processors.map(\.identifier)).count == processors.count)
        #expect(Set(processors.map(\.hashableIdentifier)).count == processors.count)
    }

    @Test func equalProcessorsHaveEqualIdentities() {
        let a = ImageProcessors.Resize(size: CGSize(width: 30, height: 40), crop: true)
        let b = ImageProcessors.Resize(size: CGSize(width: 30, height: 40), crop: true)
        #expect(a == b)
        #expect(a.identifier == b.identifier)
        #expect(a.hashableIdentifier == b.hashableIdentifier)
        #expect(
            ImageProcessors.GaussianBlur().hashableIdentifier
                == ImageProcessors.GaussianBlur(radius: 8).hashableIdentifier)
    }

    @Test func factoriesMatchTheInitializers() {
        let size = CGSize(width: 10, height: 20)
        #expect(
            (.resize(size: size, unit: .pixels, contentMode: .aspectFit, crop: true, upscale: true)
                as ImageProcessors.Resize)
                == ImageProcessors.Resize(size: size, unit: .pixels, contentMode: .aspectFit, crop: true, upscale: true)
        )
        #expect((.resize(width: 5) as ImageProcessors.Resize) == ImageProcessors.Resize(width: 5))
        #expect((.resize(height: 5) as ImageProcessors.Resize) == ImageProcessors.Resize(height: 5))
        #expect((.circle() as ImageProcessors.Circle) == ImageProcessors.Circle())
        #expect(
            (.roundedCorners(radius: 3) as ImageProcessors.RoundedCorners) == ImageProcessors.RoundedCorners(radius: 3))
        #expect((.gaussianBlur() as ImageProcessors.GaussianBlur) == ImageProcessors.GaussianBlur())
        #expect((.grayscale() as ImageProcessors.Grayscale) == ImageProcessors.Grayscale())
        let rect = CGRect(x: 1, y: 1, width: 2, height: 2)
        #expect((.crop(rect: rect) as ImageProcessors.Crop) == ImageProcessors.Crop(rect: rect))
    }
}
