// Limits on text from the live service, shared by every parser (a module of its own: importing one number must not load a parser).

/** Text fields (titles, names, messages) are cut to this many characters at parse time: the service's own limits are far lower. */
export const MAX_FIELD_CHARS = 1024;
