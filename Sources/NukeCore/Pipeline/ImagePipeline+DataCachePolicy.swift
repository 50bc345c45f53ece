extension ImagePipeline {
    /// What the pipeline stores in ``Configuration/dataCache``.
    ///
    /// Keys come from ``ImagePipeline/Cache/makeDataCacheKey(for:)``: the image identity for original data,
    /// plus the processors' identifiers and the thumbnail for encoded images. Data of local resources
    /// (`file:`, `data:`) is never stored, nor are previews or images that themselves came from the disk cache.
    public enum DataCachePolicy: Sendable, Hashable {
        /// Processed requests (processors or a thumbnail) store the encoded processed image; the others
        /// store the original data.
        case automatic
        /// Store the original data only (the default); processors run again on each decode.
        case storeOriginalData
        /// Store encoded images only, with all processors applied; requests without processors store the
        /// re-encoded original image. Original data is not stored.
        case storeEncodedImages
        /// Store the original data, and the encoded processed image for processed requests.
        case storeAll
    }
}
