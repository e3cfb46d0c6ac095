// Icons of the parts loaded on demand (a message's files, the composer's chips), drawn as ui/icon's are:
// given to <Icon path={…}>, so the first load does not carry them.
export const DOWNLOAD = "M12 4v11M7 10l5 5 5-5M5 20h14";
export const EXTERNAL = "M14 4h6v6M20 4l-9 9M18 14v6H4V6h6";
export const CLOSE = "M6 6l12 12M18 6L6 18";
export const SEARCH = "M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4-4";
export const GLOBE = "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18";
