// Speed: a line's part of a run (`breakLines`) found by binary search where the run's clusters
// go one way, not by filtering every glyph of the run for each line: the filter was a third of
// making a Persian paragraph's lines (callgrind).

extension ShapedGlyphs {
  /// Whether the clusters never go down through the glyphs (`ascending`), or never go up.
  func clustersAreMonotone(ascending: Bool) -> Bool {
    withUnsafeBufferPointer { glyphs in
      guard glyphs.count > 1 else { return true }
      for index in 1..<glyphs.count {
        let (before, after) = (glyphs[index - 1].cluster, glyphs[index].cluster)
        if ascending ? after < before : after > before { return false }
      }
      return true
    }
  }

  /// The glyphs whose clusters are in `clusters`, in their order: as `filter` finds them, where
  /// the clusters are monotone that way (`clustersAreMonotone(ascending:)`), sharing these
  /// glyphs' storage.
  func glyphs(in clusters: Range<Int>, ascending: Bool) -> ShapedGlyphs {
    let range = withUnsafeBufferPointer { $0.indices(of: clusters, ascending: ascending) }
    return range.isEmpty ? [] : ShapedGlyphs(self, sharing: range)
  }
}

extension UnsafeBufferPointer<ShapedGlyph> {
  /// The indices of the glyphs whose clusters are in `clusters`, where the clusters are
  /// monotone that way (`clustersAreMonotone(ascending:)`): by binary search.
  func indices(of clusters: Range<Int>, ascending: Bool) -> Range<Int> {
    // The first index from which `isPast` holds (it holds from some index to the end).
    func first(_ isPast: (Int) -> Bool) -> Int {
      var (low, high) = (0, count)
      while low < high {
        let middle = (low + high) / 2
        if isPast(self[middle].cluster) { high = middle } else { low = middle + 1 }
      }
      return low
    }
    let start = ascending ? first { $0 >= clusters.lowerBound } : first { $0 < clusters.upperBound }
    let end = ascending ? first { $0 >= clusters.upperBound } : first { $0 < clusters.lowerBound }
    return start < end ? start..<end : start..<start
  }
}
