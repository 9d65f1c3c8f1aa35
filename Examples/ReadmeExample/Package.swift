// swift-tools-version:6.0
// The README's "API in one example", built by Scripts/test so it cannot go stale.
import PackageDescription

let package = Package(
    name: "ReadmeExample",
    dependencies: [.package(name: "Cadence", path: "../..")],
    targets: [
        .executableTarget(
            name: "ReadmeExample",
            dependencies: [
                .product(name: "Cadence", package: "Cadence"),
                .product(name: "CadenceSDL", package: "Cadence"),
            ]
        ),
    ]
)
